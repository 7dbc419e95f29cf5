import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type LogFn } from 'pino';

/** Query parameters that carry secrets (codes, SAML documents) and never reach the logs. */
const secretParams =
  /([?&](?:code|claimCode|SAMLResponse|SAMLRequest|RelayState|Signature|SigAlg|token|password)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(secretParams, '$1[redacted]');
}

let standardOutput: pino.DestinationStream | null = null;

/**
 * Standard output for the logs, one per process. Written asynchronously: a line is handed to a
 * write at once, and lines that come while a write is under way go out together in the next, so a
 * busy portal makes one write per batch of lines instead of a blocking write per line (pino's
 * default; on the signed-in hot path that write was the largest single cost after the response
 * itself). pino flushes what is left synchronously when the process exits, on a crash too; only a
 * process killed outright (SIGKILL) can lose the lines of the write under way.
 */
function standardOutputStream(): pino.DestinationStream {
  standardOutput ??= pino.destination({ dest: 1, sync: false });
  return standardOutput;
}

/**
 * Logger options: JSON lines, and a request serializer that keeps only what an operator needs.
 * Headers are left out whole (cookies, CSRF tokens, the password headers of /api/user/auth), and
 * secret query parameters are masked. `stream` (tests) replaces standard output.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    stream: stream ?? standardOutputStream(),
    redact: {
      paths: [
        'req.headers',
        'res.headers',
        '*.password',
        '*.newPassword',
        '*.claimCode',
        '*.code',
        '*.otp',
        '*.SAMLResponse',
        '*.csrfToken',
        // A service token (the creation's answer) or a bearer header logged by mistake.
        '*.token',
        '*.authorization',
        '*.headers.authorization',
        // A database error carries the statement's parameters (the embedded database's) and, for
        // a constraint, the values in its detail: codes, hashes, addresses, names.
        '*.params',
        '*.parameters',
        '*.detail',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; headers?: Record<string, unknown> }) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
          userAgent: request.headers?.['user-agent'],
        };
      },
      res(reply: { statusCode: number }) {
        return { statusCode: reply.statusCode };
      },
    },
  };
}

/**
 * One log line per request, when its answer has gone out: method, path (secrets masked), status,
 * client address, user agent, time and the request id. Fastify's own request logging writes two
 * lines per request and runs the serializers for both; on the hot paths that was a visible share
 * of the CPU. The line is written through a child made once without the redaction paths: its
 * fields are all built here (the URL masked by redactUrl, the rest primitives the wildcard paths
 * could never match), and pino ran the wildcard redactor over each of them on every request.
 */
export function registerRequestLog(app: FastifyInstance): void {
  const access = app.log.child({}, { redact: [] });
  app.addHook('onResponse', (request, reply, done) => {
    access.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url.includes('?') ? redactUrl(request.url) : request.url,
        statusCode: reply.statusCode,
        remoteAddress: request.ip,
        userAgent: request.headers['user-agent'],
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });
}

/**
 * `request.log`: the pino child with the request id, made when something first logs through it.
 * Most requests log only their request line (which has a child of its own), and making a child
 * per request serialized its bindings every time.
 */
class LazyChildLogger {
  // Set on the prototype below, not per instance: a request that never logs allocates only this.
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): pino.LevelWithSilentOrString {
    return this.made ? this.made.level : (this.options.level ?? this.parent.level);
  }

  set level(level: pino.LevelWithSilentOrString) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  silent(): void {}
}
for (const method of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  LazyChildLogger.prototype[method] = function (this: LazyChildLogger, ...args: unknown[]) {
    // LogFn is overloaded: the spread call needs this one signature (the rule takes it for the same type).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    (this.logger()[method] as (...a: unknown[]) => void)(...args);
  };
}

export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
