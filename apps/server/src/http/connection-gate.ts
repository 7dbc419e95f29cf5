import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What a refused caller is told to wait before trying again (as a shed request is told). */
export const RETRY_AFTER_SECONDS = 5;

/** How long a refused connection may take to send its first bytes before it is simply closed. */
const REFUSED_FIRST_BYTES_MS = 2_000;

/** The request line's path, from the first bytes of a connection (undefined if not HTTP-like). */
export function requestPath(firstBytes: Buffer): string | undefined {
  return /^[A-Z]+ ([^ ?#]+)/.exec(firstBytes.toString('latin1', 0, Math.min(firstBytes.length, 256)))?.[1];
}

/** A whole HTTP/1.1 503 answer with Retry-After that closes its connection, made once. */
export function refusal(body: string): Buffer {
  const content = Buffer.from(body);
  return Buffer.concat([
    Buffer.from(
      'HTTP/1.1 503 Service Unavailable\r\n' +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${content.length}\r\n` +
        `retry-after: ${RETRY_AFTER_SECONDS}\r\n` +
        'cache-control: no-store\r\n' +
        'x-content-type-options: nosniff\r\n' +
        'connection: close\r\n\r\n',
    ),
    content,
  ]);
}

export interface ConnectionGate {
  /** Connections accepted whose first request the app has not started yet: callers waiting unseen. */
  unread(): number;
  /** The app started a request on `socket` (it is no longer unread). */
  read(socket: Socket): void;
  /** Connections answered 503 at the gate so far. */
  refused(): number;
}

/**
 * Gates `server`'s new connections before its HTTP parser sees them. While `overloaded()` says so,
 * a new connection is answered with `answer` (a whole 503 response) as soon as its first bytes
 * arrive, and closed: no parsing, no routing, no hook, nothing from the app; an overloaded
 * instance spends next to nothing on a caller it cannot serve in time, and that caller hears it at
 * once instead of waiting behind everyone else. A connection whose request line names an `exempt`
 * path (the probes) is handed on with its bytes, so health checks are never refused. Otherwise a
 * connection goes straight to the HTTP server, counted as unread until the app calls `read`.
 *
 * The HTTP server's own connection listener (the one node's http.Server registers) is wrapped; the
 * 'connection' event is the documented way to hand a socket to an http.Server.
 */
export function gateConnections(
  server: Server,
  overloaded: () => boolean,
  exempt: (path: string | undefined) => boolean,
  answer: Buffer,
): ConnectionGate {
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const pass = (socket: Socket) => {
    for (const listener of listeners) listener.call(server, socket);
  };
  const unread = new Set<Socket>();
  let refused = 0;
  const forget = (socket: Socket) => unread.delete(socket);

  const refuse = (socket: Socket) => {
    const giveUp = () => socket.destroy();
    socket.setTimeout(REFUSED_FIRST_BYTES_MS, giveUp);
    // A caller that left before its answer: nothing to report.
    socket.on('error', giveUp);
    socket.once('data', (firstBytes: Buffer) => {
      if (exempt(requestPath(firstBytes))) {
        // Handed on as if it had just arrived: its bytes go back in front of the rest.
        socket.setTimeout(0);
        socket.removeListener('timeout', giveUp);
        socket.removeListener('error', giveUp);
        socket.pause();
        socket.unshift(firstBytes);
        pass(socket);
        process.nextTick(() => socket.resume());
        return;
      }
      refused += 1;
      // After the first bytes are read (a request's rest, if any, is read and dropped until the
      // caller closes), so the caller gets the answer and a clean close, not a reset.
      socket.end(answer);
    });
  };

  server.on('connection', (socket: Socket) => {
    if (overloaded()) return refuse(socket);
    unread.add(socket);
    socket.once('close', () => forget(socket));
    pass(socket);
  });
  return { unread: () => unread.size, read: forget, refused: () => refused };
}
