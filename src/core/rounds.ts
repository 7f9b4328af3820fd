/**
 * Rounds of work taken from the store by lease (flows to follow, workflow steps to complete): one round at
 * a time, the next at once after a full batch (more are due) and otherwise after a tick. A round that
 * throws is reported and the rounds go on, since the next one may find the store answering again.
 */
export class Rounds {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<number> | undefined;
  private stopped = true;

  constructor(
    private readonly o: {
      /** One round; returns how many rows it leased. */
      tick: () => Promise<number>;
      tickMs: number;
      batch: number;
      failed: (e: unknown) => void;
    },
  ) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.round = this.o.tick().catch((e: unknown) => {
        this.o.failed(e);
        return 0;
      });
      void this.round.then((n) => {
        if (!this.stopped) this.timer = setTimeout(loop, n >= this.o.batch ? 0 : this.o.tickMs);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops the rounds and lets the one in progress finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.round?.catch(() => 0);
  }
}
