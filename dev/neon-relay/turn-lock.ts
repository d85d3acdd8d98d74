/** A first-come, first-served lock whose waiters can withdraw (e.g. when their socket closes). */
export class TurnLock<Owner> {
  private holder: Owner | null = null;
  private readonly waiting: { owner: Owner; granted: () => void }[] = [];

  /** Calls `granted` once `owner` holds the lock, immediately if it is free. */
  request(owner: Owner, granted: () => void): void {
    if (this.holder === null) {
      this.holder = owner;
      granted();
    } else {
      this.waiting.push({ owner, granted });
    }
  }

  /** Releases the lock if `owner` holds it, or drops `owner` from the queue if it is waiting. */
  leave(owner: Owner): void {
    const index = this.waiting.findIndex((entry) => entry.owner === owner);
    if (index !== -1) this.waiting.splice(index, 1);
    if (this.holder !== owner) return;
    const next = this.waiting.shift();
    this.holder = next?.owner ?? null;
    next?.granted();
  }
}
