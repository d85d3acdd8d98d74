import type { IncomingMessage } from "node:http";
import { RelayRequestError } from "./request-error";

function tooLarge(maxBytes: number): RelayRequestError {
  return new RelayRequestError(413, `request body is too large (max is ${maxBytes} bytes)`);
}

/**
 * Collects the body but gives up past `maxBytes`. Events rather than `for await`, because
 * abandoning an async iterator destroys the socket before the 413 answer can be sent.
 */
export function readBoundedBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) {
        request.off("data", onData);
        request.off("end", onEnd);
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks));
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", reject);
  });
}
