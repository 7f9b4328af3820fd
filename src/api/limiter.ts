/** Raised by `Limiter.acquire` when no slot can be had: the request never left this machine. */
export class LimiterBusy extends Error {
  constructor(readonly reason: 'queue-full' | 'wait-expired') {
    super(reason);
    this.name = 'LimiterBusy';
  }
}

interface Waiter {
  grant: () => void;
  timer: NodeJS.Timeout;
}

/**
 * A counting semaphore sized to the HTTP pool's connections, with a bounded FIFO wait queue and a
 * bounded wait. A request holds a slot for one attempt, so its request timeout only runs while it
 * really owns a connection, and a burst beyond pool + queue fails at once instead of waiting.
 */
export class Limiter {
  private active = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    private readonly slots: number,
    private readonly maxQueued: number,
    private readonly maxWaitMs: number,
  ) {}

  acquire(): Promise<() => void> {
    if (this.active < this.slots && this.waiters.length === 0) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiters.length >= this.maxQueued) return Promise.reject(new LimiterBusy('queue-full'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve(this.releaser());
        },
        timer: setTimeout(() => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(new LimiterBusy('wait-expired'));
        }, this.maxWaitMs),
      };
      waiter.timer.unref();
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next.grant();
      else this.active--;
    };
  }
}
