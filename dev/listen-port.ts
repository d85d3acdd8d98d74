import { createServer } from "node:net";

/**
 * A port to listen on. A number is that port or a failure (0: any free one). `{ prefer }` is that
 * port while it is free and any free one when it is not: a local stack keeps its familiar ports
 * when it runs alone and still starts beside another that holds them.
 */
export type ListenPort = number | { prefer: number };

/** Whether `port` on `host` could be bound a moment ago. */
export async function portIsFree(host: string, port: number): Promise<boolean> {
  const probe = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, host, () => resolve(true));
  });
  if (bound) await new Promise<void>((resolve) => probe.close(() => resolve()));
  return bound;
}

/**
 * The number to hand a server that cannot retry a busy port itself (Hardhat's, wrangler's): a fixed
 * port as it is, a preference when free now, else 0 (the server's own pick).
 */
export async function portToBind(host: string, wish: ListenPort | undefined): Promise<number> {
  if (wish === undefined) return 0;
  if (typeof wish === "number") return wish;
  return wish.prefer !== 0 && (await portIsFree(host, wish.prefer)) ? wish.prefer : 0;
}

/** A concrete free port for a server that must be told one (wrangler's inspector): the preference when free. */
export async function pickPort(host: string, wish: ListenPort | undefined): Promise<number> {
  const port = await portToBind(host, wish);
  if (port !== 0) return port;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, host, () => resolve());
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error(`no free port on ${host}`);
  return address.port;
}
