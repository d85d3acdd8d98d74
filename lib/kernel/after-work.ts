import { describeError, type Logger } from "./log";

/**
 * What a unit of work (one request, one job, one sweep) leaves for its end, when every transaction
 * it opened has committed or rolled back: work that must see committed rows, such as setting
 * queued webhook deliveries going. Each task has a key, so the same work asked for twice runs once.
 * A task is given the context that runs it (the unit's ServiceContext).
 */
export class AfterWork<Context extends { log: Logger }> {
  #tasks = new Map<string, (ctx: Context) => Promise<void>>();

  add(key: string, task: (ctx: Context) => Promise<void>): void {
    if (!this.#tasks.has(key)) this.#tasks.set(key, task);
  }

  /**
   * Runs the tasks in the order they were added, and any they add meanwhile. Best effort: a task
   * that fails is logged and the others still run, since the unit's changes stand whatever happens
   * here (the cron sweep recovers what a failed task left).
   */
  async run(ctx: Context): Promise<void> {
    for (const [key, task] of this.#tasks) {
      this.#tasks.delete(key);
      try {
        await task(ctx);
      } catch (error) {
        ctx.log.warn("work after the unit's end failed; the sweep recovers it", {
          task: key,
          ...describeError(error),
        });
      }
    }
  }
}
