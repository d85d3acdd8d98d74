/** Splits raw Postgres wire-protocol streams into whole messages, without interpreting bodies. */
import { ByteQueue } from "./byte-queue";

const PROTOCOL_3_STARTUP = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;

export interface FrontendMessage {
  /** The type byte as a character; null for the untyped startup-phase messages. */
  type: string | null;
  /** For untyped messages: the protocol version or request code that follows the length. */
  code: number | null;
  bytes: Buffer;
}

export interface BackendMessage {
  /** The type byte; null for the one-byte answer to an SSL/GSS encryption request. */
  type: string | null;
  bytes: Buffer;
}

/** Client → server. Until the startup packet has passed, messages carry no type byte. */
export class FrontendMessageReader {
  private readonly buffered = new ByteQueue();
  private startupSeen = false;

  push(chunk: Buffer): FrontendMessage[] {
    this.buffered.push(chunk);
    const messages: FrontendMessage[] = [];
    for (;;) {
      const typed = this.startupSeen;
      const header = typed ? 5 : 8;
      if (this.buffered.length < header) break;
      const head = this.buffered.peek(header);
      const length = typed ? 1 + head.readInt32BE(1) : head.readInt32BE(0);
      if (length < header) throw new Error(`malformed Postgres frontend message (length ${length})`);
      if (this.buffered.length < length) break;
      const bytes = this.buffered.take(length);
      if (typed) {
        messages.push({ type: String.fromCharCode(bytes[0] ?? 0), code: null, bytes });
      } else {
        const code = bytes.readInt32BE(4);
        if (code === PROTOCOL_3_STARTUP) this.startupSeen = true;
        messages.push({ type: null, code, bytes });
      }
    }
    return messages;
  }
}

/** Server → client. An SSL/GSS request is answered by a single untyped byte ('S', 'G' or 'N'). */
export class BackendMessageReader {
  private readonly buffered = new ByteQueue();
  private singleByteAnswersExpected = 0;

  expectSingleByteAnswer(): void {
    this.singleByteAnswersExpected += 1;
  }

  push(chunk: Buffer): BackendMessage[] {
    this.buffered.push(chunk);
    const messages: BackendMessage[] = [];
    for (;;) {
      if (this.singleByteAnswersExpected > 0 && this.buffered.length >= 1) {
        this.singleByteAnswersExpected -= 1;
        messages.push({ type: null, bytes: this.buffered.take(1) });
        continue;
      }
      if (this.buffered.length < 5) break;
      const length = 1 + this.buffered.peek(5).readInt32BE(1);
      if (length < 5) throw new Error(`malformed Postgres backend message (length ${length})`);
      if (this.buffered.length < length) break;
      const bytes = this.buffered.take(length);
      messages.push({ type: String.fromCharCode(bytes[0] ?? 0), bytes });
    }
    return messages;
  }
}
