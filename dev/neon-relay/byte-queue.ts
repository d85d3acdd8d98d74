/** Bytes received in arbitrary chunks, taken off the front in exact amounts without re-copying the rest. */
export class ByteQueue {
  private chunks: Buffer[] = [];
  private total = 0;

  get length(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.total += chunk.length;
  }

  /** The first `count` bytes, left in the queue. Callers check `length` first. */
  peek(count: number): Buffer {
    const first = this.chunks[0];
    if (first !== undefined && first.length >= count) return first.subarray(0, count);
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined.subarray(0, count);
  }

  /** Removes and returns the first `count` bytes. Callers check `length` first. */
  take(count: number): Buffer {
    const taken = this.peek(count);
    this.total -= count;
    const first = this.chunks[0] as Buffer;
    if (first.length === count) this.chunks.shift();
    else this.chunks[0] = first.subarray(count);
    return taken;
  }
}
