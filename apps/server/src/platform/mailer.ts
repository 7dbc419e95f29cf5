import nodemailer, { type Transporter } from 'nodemailer';
import { lastAnswer } from './last-answer';

export interface Mailer {
  /** The SMTP transport, when an SMTP relay is configured. */
  transport: Transporter | null;
  status(): Promise<{ ok: boolean; text: string }>;
  close(): void;
}

/** SMTP connections the pool keeps to the relay; the outbox worker sends this many mails at once. */
export const SMTP_CONNECTIONS = 3;

/** The pool's timeouts (smtpOptions), so that an outage fails fast. */
const SMTP_CONNECTION_TIMEOUT_MS = 5_000;
const SMTP_GREETING_TIMEOUT_MS = 5_000;
const SMTP_SOCKET_TIMEOUT_MS = 15_000;

/**
 * How long the relay's state is reused by the service check. Load balancers call it every few
 * seconds from every node; without this each call would open an SMTP connection to the relay.
 */
const MAIL_STATUS_CACHE_MS = 10_000;

/**
 * The longest a probe can take (smtpOptions: a connection, the greeting, then commands on the
 * socket, each up to its timeout); the last answer is believed for the cache and this much longer.
 */
const MAIL_PROBE_MAX_MS = SMTP_CONNECTION_TIMEOUT_MS + SMTP_GREETING_TIMEOUT_MS + SMTP_SOCKET_TIMEOUT_MS;

/** The SMTP side of mail delivery; standalone mode without SMTP keeps mail in the dev mailbox only. */
export function createMailer(
  smtpUrl: string | undefined,
  isStandalone: boolean,
  /** Milliseconds on a monotonic clock, for the status's cache (tests move it). */
  now?: () => number,
): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpOptions(smtpUrl)) : null;
  // Calls at once share one probe, its answer serves every call for a few seconds, and nobody
  // waits on a relay that hangs: past that, the last answer serves while the next probe runs.
  const relayStatus = lastAnswer({
    probe: async () => {
      try {
        await transport?.verify();
        return { ok: true, text: 'SMTP relay reachable' };
      } catch {
        return { ok: false, text: 'SMTP relay unreachable (mail waits in the outbox)' };
      }
    },
    freshMs: MAIL_STATUS_CACHE_MS,
    trustMs: MAIL_STATUS_CACHE_MS + MAIL_PROBE_MAX_MS,
    untrusted: (ageMs) => ({
      ok: false,
      text: `SMTP relay not answering for ${Math.round(ageMs / 1000)} s (mail waits in the outbox)`,
    }),
    now,
  });
  return {
    transport,
    status() {
      if (!transport) {
        return Promise.resolve(
          isStandalone
            ? { ok: true, text: 'dev mailbox (standalone, no SMTP relay set)' }
            : { ok: false, text: 'no SMTP relay configured' },
        );
      }
      return relayStatus.get();
    },
    close() {
      transport?.close();
    },
  };
}

/** SMTP options from an smtp:// or smtps:// URL: a small pool of reused connections, with timeouts so an outage fails fast. */
export function smtpOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    pool: true as const,
    maxConnections: SMTP_CONNECTIONS,
    // A pooled connection is closed after this long unused, well below the 5 minutes relays wait.
    idleTimeout: 60_000,
    // The outbox owns retries: the pool must not silently resend a mail whose connection broke
    // (the relay may already have accepted it, and the row's claim and backoff would not know).
    maxRequeues: 0,
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
  };
}

/** What a failed send means for its outbox row. */
export interface SmtpFailure {
  /** The relay refused the recipient for good (5xx): the row ends as undeliverable. */
  permanent: boolean;
  /** The relay itself failed (unreachable, timed out, 421, refused the sender or our login), not this mail. */
  relayDown: boolean;
  /** What is stored: the error's kind or the reply's code; for a permanent refusal its short reason too. */
  summary: string;
}

/** Reads a nodemailer error. Only a 5xx about the recipient is permanent; everything else is retried. */
export function classifySmtpFailure(error: unknown): SmtpFailure {
  const e = (error ?? {}) as {
    code?: unknown;
    responseCode?: unknown;
    response?: unknown;
    command?: unknown;
  };
  const kind = typeof e.code === 'string' ? e.code.slice(0, 50) : 'send failed';
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : 0;
  const response = typeof e.response === 'string' ? e.response : '';
  const aboutThisMail = e.command === 'RCPT TO' || e.command === 'DATA';
  if (!responseCode || responseCode === 421 || !aboutThisMail) {
    return { permanent: false, relayDown: true, summary: responseCode ? `${kind} ${responseCode}` : kind };
  }
  // RFC 3463: 5.1.x is a bad address, 5.2.x the mailbox's state; after DATA only those are the recipient's.
  const enhanced = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(response)?.[1];
  const permanent = responseCode >= 500 && (e.command === 'RCPT TO' || /^5\.[12]\./.test(enhanced ?? ''));
  const code = enhanced ? `${responseCode} ${enhanced}` : String(responseCode);
  return { permanent, relayDown: false, summary: permanent ? `${code} ${shortReason(response)}` : code };
}

/** The reply's text for admins: no code prefix, no control characters, one short line. */
function shortReason(response: string): string {
  return response
    .replace(/^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3}\s+)?/, '')
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
}
