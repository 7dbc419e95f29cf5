import { SMTPServer } from 'smtp-server';

export { freePort } from './free-port';

export interface RelayOptions {
  /** Milliseconds the relay waits before accepting each message (a slow relay). */
  delayMs?: number;
  /** Milliseconds the relay waits before accepting a message to this recipient (a slow mailbox). */
  delayFor?: (recipient: string) => number;
  /** An SMTP reply refusing this recipient (e.g. `550 5.1.1 no such user`), or undefined to accept. */
  refuse?: (recipient: string) => string | undefined;
  /** Keep every message's text in `messages` (for tests that follow a mailed link). */
  keepMessages?: boolean;
}

export interface RelayedMessage {
  to: string[];
  text: string;
}

/** A message's source with quoted-printable soft line breaks and `=XX` escapes undone. */
function decodeQuotedPrintable(source: string): string {
  return source
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server (smtp-server) counting what each recipient receives and the connections made. */
export async function startRelay(port: number, options: RelayOptions = {}) {
  const received = new Map<string, number>();
  const messages: RelayedMessage[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 0,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const reply = options.refuse?.(address.address);
      if (!reply) return callback();
      const [code = '550', ...text] = reply.split(' ');
      return callback(Object.assign(new Error(text.join(' ')), { responseCode: Number(code) }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (options.keepMessages) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (options.keepMessages)
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
          });
        // Counted once the whole message is in, as a real relay would go on to deliver it even if
        // the client never saw the answer.
        for (const r of session.envelope.rcptTo) received.set(r.address, (received.get(r.address) ?? 0) + 1);
        const delay =
          (options.delayMs ?? 0) +
          Math.max(0, ...session.envelope.rcptTo.map((r) => options.delayFor?.(r.address) ?? 0));
        if (delay) setTimeout(() => callback(), delay);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    received,
    /** Every message received, its source with quoted-printable undone (links read whole). */
    messages,
    /** Total messages received, duplicates included. */
    get total() {
      return [...received.values()].reduce((a, b) => a + b, 0);
    },
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
