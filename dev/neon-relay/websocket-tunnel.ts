import type { IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { WEBSOCKET_PATHS } from "../../lib/kernel/db/neon-relay-config";
import { FrontendMessageReader } from "./postgres-framing";
import type { UpstreamPostgres } from "./types";

/** Above this many unsent bytes towards the browser/worker side, stop reading from Postgres. */
const WEBSOCKET_HIGH_WATER_BYTES = 1024 * 1024;
/** Postgres messages can be large (COPY, big rows); this only bounds a single frame. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

function rawDataToBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}

/**
 * Pipes one WebSocket to one fresh TCP connection to the upstream, byte for byte, the way
 * Neon's wsproxy does: each frame is written to Postgres, each TCP chunk becomes a binary frame.
 */
function pipeToUpstream(ws: WebSocket, upstream: UpstreamPostgres, onClosed: () => void): Socket {
  const tcp = connect({ host: upstream.host, port: upstream.port });
  tcp.setNoDelay(true);
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    tcp.destroy();
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close();
    onClosed();
  };

  const fromClient = new FrontendMessageReader();
  ws.on("message", (data) => {
    const bytes = rawDataToBuffer(data);
    // net.Socket queues writes made while still connecting, so nothing is lost before "connect".
    if (!tcp.write(bytes)) ws.pause();
    let terminating = false;
    try {
      terminating = fromClient.push(bytes).some((message) => message.type === "X");
    } catch {
      finish();
      return;
    }
    // Postgres hangs up after Terminate and the driver's Client.end() waits for exactly that;
    // some upstreams (pglite-socket) keep the socket open, so the tunnel hangs up itself.
    if (terminating) tcp.end(finish);
  });
  tcp.on("drain", () => ws.resume());

  tcp.on("data", (chunk) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(chunk, { binary: true }, () => {
      if (ws.bufferedAmount < WEBSOCKET_HIGH_WATER_BYTES) tcp.resume();
    });
    if (ws.bufferedAmount >= WEBSOCKET_HIGH_WATER_BYTES) tcp.pause();
  });

  tcp.on("error", finish);
  tcp.on("close", finish);
  ws.on("error", finish);
  ws.on("close", finish);
  return tcp;
}

export interface WebSocketTunnel {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

export function createWebSocketTunnel(upstream: UpstreamPostgres): WebSocketTunnel {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const open = new Map<WebSocket, Socket>();

  server.on("connection", (ws: WebSocket) => {
    // The requested ?address= is deliberately ignored: the relay only reaches its upstream.
    const tcp = pipeToUpstream(ws, upstream, () => open.delete(ws));
    open.set(ws, tcp);
  });

  return {
    handleUpgrade(request, socket, head) {
      const path = new URL(request.url ?? "/", "http://relay").pathname;
      if (!WEBSOCKET_PATHS.has(path)) {
        socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      server.handleUpgrade(request, socket, head, (ws) => server.emit("connection", ws, request));
    },
    close() {
      for (const [ws, tcp] of open) {
        tcp.destroy();
        ws.terminate();
      }
      open.clear();
      server.close();
    },
  };
}
