import type { LookupAddress } from "node:dns";
import type { IncomingMessage } from "node:http";
import type { LookupFunction } from "node:net";
import type { HostResolver } from "./host-resolver";
import {
  addressesRefusal,
  answered,
  CONNECTION_FAILED,
  type PostOutcome,
  postHeaders,
  RESPONSE_EXCERPT_CHARS,
  type WebhookPost,
} from "./post";

/** The error a refused address fails the connection with: the operator's log keeps the reason. */
class RefusedAddress extends Error {
  readonly code = "EADDRNOTPUBLIC";
}

/**
 * Node: the host is resolved once, by the connection itself (node:http's `lookup`), and every address
 * is judged before the socket opens, so the address connected to is the address checked: a name
 * that answers a public address to a first lookup and a private one to the next (DNS rebinding)
 * never reaches the private one.
 */
export function nodeWebhookPost(resolve: HostResolver): WebhookPost {
  return async (request) => {
    // node:http and node:https load at the first post, not with the module: the worker's bundle holds
    // this module too (it posts with fetch), and importing node:http loads Node's HTTP client.
    const [{ request: httpRequest }, { request: httpsRequest }] = await Promise.all([
      import("node:http"),
      import("node:https"),
    ]);
    return new Promise<PostOutcome>((settle) => {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let settled = false;
      /** Set once the status line came: a timeout then keeps what the answer said so far. */
      let finishAnswer: (() => void) | undefined;
      const done = (outcome: PostOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        settle(outcome);
      };
      const lookup: LookupFunction = (hostname, options, callback) => {
        resolve(hostname).then(
          (addresses) => {
            // Mock mode's local receivers are not judged, but a name must still resolve.
            const refusal =
              request.checkAddresses || addresses.length === 0 ? addressesRefusal(addresses) : undefined;
            if (refusal) {
              callback(new RefusedAddress(refusal), "", 0);
              return;
            }
            const entries: LookupAddress[] = addresses.map((address) => ({
              address,
              family: address.includes(":") ? 6 : 4,
            }));
            if (options.all) callback(null, entries);
            else callback(null, entries[0]?.address ?? "", entries[0]?.family ?? 4);
          },
          (error: unknown) => callback(error as NodeJS.ErrnoException, "", 0),
        );
      };
      const url = new URL(request.url);
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const outgoing = send(
        url,
        { method: "POST", headers: postHeaders(request.headers), lookup, agent: false },
        (response: IncomingMessage) => {
          let excerpt = "";
          const finish = () => {
            response.destroy();
            const retryAfter = response.headers["retry-after"];
            done(
              answered(
                response.statusCode ?? 0,
                Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
                excerpt.slice(0, RESPONSE_EXCERPT_CHARS),
                elapsed(),
              ),
            );
          };
          finishAnswer = finish;
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            excerpt += chunk;
            if (excerpt.length >= RESPONSE_EXCERPT_CHARS) finish();
          });
          response.on("end", finish);
          // The status line decides the attempt; a body cut short is kept as far as it got.
          response.on("error", finish);
          response.on("close", finish);
        },
      );
      const timer = setTimeout(() => {
        if (finishAnswer) return finishAnswer();
        outgoing.destroy();
        done({ error: `no answer within ${request.timeoutMs} ms`, durationMs: elapsed() });
      }, request.timeoutMs);
      outgoing.on("error", (error: NodeJS.ErrnoException) => {
        done({
          error: CONNECTION_FAILED,
          cause: error instanceof RefusedAddress ? error.message : (error.code ?? "request failed"),
          durationMs: elapsed(),
        });
      });
      outgoing.end(request.body);
    });
  };
}
