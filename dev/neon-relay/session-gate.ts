import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import {
  BackendMessageReader,
  type FrontendMessage,
  FrontendMessageReader,
  GSSENC_REQUEST,
  SSL_REQUEST,
} from "./postgres-framing";
import { TurnLock } from "./turn-lock";

/** Frontend messages each answered by exactly one ReadyForQuery (startup counts too). */
const ANSWERED_BY_READY = new Set(["Q", "S", "F"]);
/** Extended-protocol messages whose effects (unnamed statement/portal) last until the next Sync. */
const EXTENDED_PROTOCOL = new Set(["P", "B", "D", "E", "C", "H"]);

/**
 * One client connection passing through the gate. It may talk to the upstream only while it
 * holds the shared lock, and it keeps the lock from its first message until the server reports
 * it idle (ReadyForQuery 'I' with nothing outstanding): a whole Parse…Sync exchange, or a whole
 * explicit transaction, therefore runs without another connection's messages in between.
 */
class GatedSession {
  private readonly fromClientReader = new FrontendMessageReader();
  private readonly fromUpstreamReader = new BackendMessageReader();
  private readonly queued: FrontendMessage[] = [];
  private holding = false;
  private requested = false;
  private readyAnswersOutstanding = 0;
  private extendedExchangeOpen = false;
  private transactionStatus = "I";
  private closed = false;

  constructor(
    private readonly client: Socket,
    private readonly upstream: Socket,
    private readonly lock: TurnLock<GatedSession>,
    private readonly onClosed: () => void,
  ) {
    client.on("data", (chunk) => this.closeOnProtocolError(() => this.receiveFromClient(chunk)));
    upstream.on("data", (chunk) => this.closeOnProtocolError(() => this.receiveFromUpstream(chunk)));
    client.on("drain", () => upstream.resume());
    upstream.on("drain", () => client.resume());
    for (const socket of [client, upstream]) {
      socket.on("error", () => this.close());
      socket.on("close", () => this.close());
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.client.destroy();
    this.upstream.destroy();
    this.lock.leave(this);
    this.onClosed();
  }

  private closeOnProtocolError(handle: () => void): void {
    try {
      handle();
    } catch {
      this.close();
    }
  }

  private receiveFromClient(chunk: Buffer): void {
    for (const message of this.fromClientReader.push(chunk)) {
      if (message.type === null && (message.code === SSL_REQUEST || message.code === GSSENC_REQUEST)) {
        // Encryption negotiation precedes the session and touches no backend state.
        this.fromUpstreamReader.expectSingleByteAnswer();
        this.upstream.write(message.bytes);
        continue;
      }
      this.queued.push(message);
    }
    if (this.queued.length === 0) return;
    if (this.holding) {
      this.forwardQueued();
    } else if (!this.requested) {
      this.requested = true;
      this.lock.request(this, () => {
        this.requested = false;
        this.holding = true;
        this.forwardQueued();
        this.releaseIfIdle();
      });
    }
  }

  private forwardQueued(): void {
    for (const message of this.queued) {
      if (message.type === null || ANSWERED_BY_READY.has(message.type)) this.readyAnswersOutstanding += 1;
      if (message.type === "S") this.extendedExchangeOpen = false;
      else if (message.type !== null && EXTENDED_PROTOCOL.has(message.type)) this.extendedExchangeOpen = true;
    }
    const bytes = Buffer.concat(this.queued.map((message) => message.bytes));
    this.queued.length = 0;
    if (!this.upstream.write(bytes)) this.client.pause();
  }

  private receiveFromUpstream(chunk: Buffer): void {
    if (!this.client.write(chunk)) this.upstream.pause();
    for (const message of this.fromUpstreamReader.push(chunk)) {
      if (message.type !== "Z") continue;
      this.readyAnswersOutstanding = Math.max(0, this.readyAnswersOutstanding - 1);
      this.transactionStatus = String.fromCharCode(message.bytes[5] ?? 0);
    }
    this.releaseIfIdle();
  }

  private releaseIfIdle(): void {
    const idle =
      this.readyAnswersOutstanding === 0 &&
      !this.extendedExchangeOpen &&
      this.transactionStatus === "I" &&
      this.queued.length === 0;
    if (this.holding && idle) {
      this.holding = false;
      this.lock.leave(this);
    }
  }
}

export interface SessionGate {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A loopback TCP hop in front of a single-backend upstream (PGlite behind pglite-socket), which
 * otherwise interleaves messages from concurrent connections mid-exchange. The relay's tunnels
 * and HTTP pools connect here instead of to the upstream directly.
 */
export async function startSessionGate(upstream: { host: string; port: number }): Promise<SessionGate> {
  const lock = new TurnLock<GatedSession>();
  const sessions = new Set<GatedSession>();
  const server = createServer((client) => {
    client.setNoDelay(true);
    const upstreamSocket = connect({ host: upstream.host, port: upstream.port });
    upstreamSocket.setNoDelay(true);
    const session: GatedSession = new GatedSession(client, upstreamSocket, lock, () =>
      sessions.delete(session),
    );
    sessions.add(session);
  });
  const host = "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const session of sessions) session.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
