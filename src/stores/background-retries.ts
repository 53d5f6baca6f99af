import type { LogFields, Logger } from '../logger.js';

/** Work to finish once its backend is back; it must be safe to run again after an attempt that failed. */
export interface RetryTask {
  /** Throws while it cannot be done yet. */
  run(): Promise<void>;
  /** Logs with the context of whoever queued it. */
  logger: Logger;
  /** What identifies the task in the logs. */
  fields: LogFields;
}

export interface BackgroundRetriesOptions {
  /** Tasks held at most; when full, the oldest is dropped, and logged as an error. */
  capacity: number;
  /** Wait before the first attempt; each failed attempt doubles it, up to `longestDelayMs`. */
  firstDelayMs: number;
  longestDelayMs: number;
  /** Errors worth another attempt (the backend is away); any other ends the task. */
  isRetryable(error: unknown): boolean;
  /** What the tasks are, for the logs. */
  what: string;
}

/**
 * A bounded in-memory queue of tasks retried with backoff, in the order queued. One task is tried at
 * a time: while the backend is away the head fails and the rest wait with it, so an outage costs one
 * attempt per delay, however many tasks are queued; once the head succeeds, the rest follow at once.
 * Its timer does not keep the process alive, and what is queued is lost with the process.
 */
export class BackgroundRetries {
  private readonly tasks: RetryTask[] = [];
  private delayMs: number;
  private timer: NodeJS.Timeout | null = null;
  private draining = false;

  constructor(private readonly options: BackgroundRetriesOptions) {
    this.delayMs = options.firstDelayMs;
  }

  add(task: RetryTask): void {
    if (this.tasks.length >= this.options.capacity) {
      const dropped = this.tasks.shift();
      dropped?.logger.error(`dropped a queued ${this.options.what}: the retry queue is full`, dropped.fields);
    }
    this.tasks.push(task);
    task.logger.warn(`queued a ${this.options.what} to retry in the background`, {
      ...task.fields,
      queued: this.tasks.length,
    });
    this.schedule();
  }

  /**
   * The backend has just answered someone: whatever is queued is tried now rather than after the
   * rest of its backoff, with the backoff started afresh.
   */
  retryNow(): void {
    if (this.timer === null || this.draining) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.delayMs = this.options.firstDelayMs;
    void this.drain();
  }

  private schedule(): void {
    if (this.timer !== null || this.draining || this.tasks.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.drain();
    }, this.delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let task = this.tasks[0]; task !== undefined; task = this.tasks[0]) {
        try {
          await task.run();
          task.logger.info(`a queued ${this.options.what} went through`, task.fields);
          this.delayMs = this.options.firstDelayMs;
        } catch (error) {
          if (this.options.isRetryable(error)) {
            this.delayMs = Math.min(this.options.longestDelayMs, this.delayMs * 2);
            return;
          }
          task.logger.error(`gave up a queued ${this.options.what}`, { ...task.fields, error });
        }
        // Not `shift`: a full queue may have dropped this task while it ran.
        const index = this.tasks.indexOf(task);
        if (index !== -1) this.tasks.splice(index, 1);
      }
    } finally {
      this.draining = false;
      this.schedule();
    }
  }
}
