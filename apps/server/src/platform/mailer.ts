import nodemailer, { type Transporter } from 'nodemailer';

export interface Mailer {
  /** The SMTP transport, when an SMTP relay is configured. */
  transport: Transporter | null;
  status(): Promise<{ ok: boolean; text: string }>;
  close(): void;
}

/** The SMTP side of mail delivery; standalone mode without SMTP keeps mail in the dev mailbox only. */
export function createMailer(smtpUrl: string | undefined, isStandalone: boolean): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpOptions(smtpUrl)) : null;
  return {
    transport,
    async status() {
      if (!transport) {
        return isStandalone
          ? { ok: true, text: 'dev mailbox (standalone, no SMTP relay set)' }
          : { ok: false, text: 'no SMTP relay configured' };
      }
      try {
        await transport.verify();
        return { ok: true, text: 'SMTP relay reachable' };
      } catch {
        return { ok: false, text: 'SMTP relay unreachable (mail waits in the outbox)' };
      }
    },
    close() {
      transport?.close();
    },
  };
}

/** SMTP options from an smtp:// or smtps:// URL, with timeouts so an outage fails fast. */
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
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 15_000,
  };
}
