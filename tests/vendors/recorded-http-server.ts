import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** What the provider was asked: the method, the full URL and the headers as received. */
interface ReceivedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
}

/** A recorded answer to serve, or "hang" to accept the request and never answer it. */
type RecordedAnswer = { status: number; body: string; headers?: Record<string, string> } | "hang";

export interface RecordedHttpServer {
  baseUrl: string;
  received: ReceivedRequest[];
  /** Serves `answer` to every request from now on. */
  answerWith(answer: RecordedAnswer): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server standing in for a provider: it serves recorded answers (the fixtures) and
 * keeps every request, so a test can assert both what the adapter sent and what it made of the answer.
 */
export async function startRecordedHttpServer(): Promise<RecordedHttpServer> {
  const received: ReceivedRequest[] = [];
  let answer: RecordedAnswer = { status: 500, body: "no answer recorded" };
  const server = createServer((request, response) => {
    received.push({
      method: request.method ?? "",
      url: new URL(request.url ?? "/", "http://127.0.0.1"),
      headers: request.headers,
    });
    if (answer === "hang") return;
    response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    answerWith(next) {
      answer = next;
    },
    close: async () => {
      // Hanging requests would keep close() waiting for ever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
