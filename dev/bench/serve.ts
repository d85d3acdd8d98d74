import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { LOOPBACK } from "../loopback-http";

/** A fetch handler (the app) on a loopback HTTP port, so a load generator reaches it as a client would. */
export async function serveFetch(
  handle: (request: Request) => Response | Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    try {
      const response = await handle(await requestOf(req));
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      res.writeHead(response.status, headers);
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(error instanceof Error ? error.message : String(error));
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${LOOPBACK}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function requestOf(req: IncomingMessage): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
  return new Request(`http://${LOOPBACK}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}
