/** Where availability changes are reported (the server's logger). */
export interface AvailabilityLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Whether PostgreSQL answers, as the pool sees it: down when a connection fails or is lost, up
 * again at the next connection made. Whatever keeps state from the database outside a request
 * (a LISTEN connection and what it caches, DESIGN D12) hooks `onRestored` to reload it: what
 * changed while the line was down was never announced to it.
 */
export class DatabaseAvailability {
  private down = false;
  private downSince = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly log?: AvailabilityLog) {}

  get isDown(): boolean {
    return this.down;
  }

  markDown(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.downSince = Date.now();
    this.log?.warn({ err: error }, 'databasen svarar inte: förfrågningar som behöver den besvaras med 503 tills den är tillbaka');
  }

  markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.log?.info({ downMs: Date.now() - this.downSince }, 'databasen svarar igen');
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.log?.warn({ err: error }, 'en lyssnare på att databasen är tillbaka misslyckades');
      }
    }
  }

  /** Calls `listener` each time the database answers again after it went away; returns the unsubscribe. */
  onRestored(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
