/** The two levels an outage log writes at; a pino (fastify) logger is one. */
export interface OutageLogger {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/**
 * The log of a database outage: its first failure at once, then at most one line per interval
 * saying how many more failures there were meanwhile, and (where the caller can tell) one line when
 * it is over. Under load an outage fails every request; a line per request (tens of thousands a
 * second) would bury everything else in the log and cost the CPU the portal needs to recover. The
 * lines carry a reason safe to log (`unavailableReason`), never the error's message or stack.
 */
export class OutageLog {
  private lastLineAt = -Infinity;
  private unlogged = 0;
  private ongoing = false;

  constructor(
    /** What the failure line says, e.g. 'database unavailable'. */
    private readonly message: string,
    private readonly intervalMs = 10_000,
    private readonly now = () => performance.now(),
    /** error for an outage (what operators page on); warn for overload the portal sheds itself. */
    private readonly level: 'error' | 'warn' = 'error',
  ) {}

  failed(log: Pick<OutageLogger, 'error' | 'warn'>, reason: string): void {
    this.ongoing = true;
    const now = this.now();
    if (now - this.lastLineAt < this.intervalMs) {
      this.unlogged += 1;
      return;
    }
    log[this.level]({ reason, moreSinceLastLine: this.unlogged }, this.message);
    this.lastLineAt = now;
    this.unlogged = 0;
  }

  /** A success after failures: says so once, with the failures not logged yet; else nothing. */
  recovered(log: Pick<OutageLogger, 'info'>, message: string): void {
    if (!this.ongoing) return;
    log.info({ moreSinceLastLine: this.unlogged }, message);
    this.ongoing = false;
    this.unlogged = 0;
    this.lastLineAt = -Infinity;
  }
}
