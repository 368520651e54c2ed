import type { FastifyBaseLogger } from 'fastify';

/** Of the refusals an outage causes, one line at most this often (with how many it stands for). */
export const OUTAGE_LOG_WINDOW_MS = 10_000;

/**
 * The warning for a request refused because the database is away (a 503): the first is logged as
 * it happens, the rest of each window in one line saying how many there were and where the first of
 * them went, so that an outage under traffic writes a handful of lines, not one per request (issue
 * 34 point 3: 153 warning lines in 10 s before). One per server process.
 */
export class OutageLog {
  private windowStartedAt = -Infinity;
  private unlogged = 0;
  private firstUnlogged: Record<string, unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  refused(fields: Record<string, unknown>, message: string): void {
    if (this.now() - this.windowStartedAt >= OUTAGE_LOG_WINDOW_MS) {
      this.flush();
      this.windowStartedAt = this.now();
      this.log.warn(fields, message);
      return;
    }
    this.unlogged += 1;
    this.firstUnlogged ??= fields;
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, OUTAGE_LOG_WINDOW_MS - (this.now() - this.windowStartedAt))).unref();
  }

  /** Writes the window's count, if any; the next refusal starts a new window. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.unlogged === 0) return;
    this.log.warn(
      { refused: this.unlogged, first: this.firstUnlogged },
      `ytterligare ${this.unlogged} förfrågningar besvarades med 503 medan databasen inte svarade`,
    );
    this.unlogged = 0;
    this.firstUnlogged = undefined;
    this.windowStartedAt = this.now();
  }
}
