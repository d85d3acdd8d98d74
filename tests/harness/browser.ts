import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { type Hex, type PrivateKeyAccount, toHex } from "viem";
import type { SandboxChain } from "../../dev/chains";
import { closeServer, listen } from "../../dev/loopback-http";
import { createHarness, type Harness, type HarnessOptions } from "./app";
import { clientsOn } from "./burns";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where Debian's `apt-get install -y chromium` puts the browser; CHROMIUM_PATH overrides it. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const SCREENSHOT_DIR = join(ROOT, ".data/screenshots");
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Headless Chromium with a fresh profile (playwright makes a new temporary user data dir for every
 * launch and deletes it on close). No Chromium is a failure that says how to install it, never a skip.
 */
async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed (no ${CHROMIUM_PATH}); the browser suite (tests/browser) needs it. ` +
        "Run `apt-get install -y chromium` (as root), or set CHROMIUM_PATH to a Chromium binary.",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The worker's static assets as wrangler's build step makes them (dev/docs-assets.mjs), written to a
 * scratch directory so a running `npm run dev` or the workerd suite never sees dist/assets rewritten.
 */
export async function buildWorkerAssets(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "copm-assets-"));
  await promisify(execFile)(process.execPath, [join(ROOT, "dev/docs-assets.mjs")], {
    env: { ...process.env, ASSETS_OUT: dir },
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** The asset file a path names, if any, never outside the directory. */
async function assetFile(dir: string, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const file = normalize(join(dir, decoded));
  if (!file.startsWith(dir + sep)) return undefined;
  const found = await stat(file).catch(() => undefined);
  return found?.isFile() ? file : undefined;
}

function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => done(Buffer.concat(chunks)));
    req.on("error", fail);
  });
}

export interface ServedApp {
  url: string;
  close(): Promise<void>;
}

/**
 * The in-process app over real HTTP on loopback, as a browser needs it: Node's http server turned
 * into `app.fetch(Request, { incoming })` (so the per-IP limit sees the socket's address, as the Node
 * adapter passes it). With `assetsDir`, a GET or HEAD naming a file there is served first, as
 * Cloudflare serves a worker's static assets before the worker.
 */
export async function serveOverHttp(
  app: { fetch(request: Request, env?: unknown): Response | Promise<Response> },
  options: { assetsDir?: string } = {},
): Promise<ServedApp> {
  let origin = "";
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", origin);
      const method = req.method ?? "GET";
      const reading = method === "GET" || method === "HEAD";
      const asset =
        options.assetsDir && reading ? await assetFile(options.assetsDir, url.pathname) : undefined;
      if (asset) {
        const content = await readFile(asset);
        res.writeHead(200, {
          "content-type": CONTENT_TYPES[extname(asset)] ?? "application/octet-stream",
          "content-length": content.length,
          "cache-control": "no-cache",
        });
        res.end(method === "HEAD" ? undefined : content);
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      const body = reading ? undefined : await readRequestBody(req);
      const response = await app.fetch(
        new Request(url, { method, headers, ...(body && body.length > 0 ? { body } : {}) }),
        { incoming: req },
      );
      const outgoing: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie") outgoing[name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) outgoing["set-cookie"] = cookies;
      res.writeHead(response.status, outgoing);
      res.end(method === "HEAD" || !response.body ? undefined : Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(error instanceof Error ? error.message : String(error));
    }
  });
  const { url } = await listen(server);
  origin = url;
  return { url, close: () => closeServer(server) };
}

// ---- a browser suite ---------------------------------------------------------------------------

/** A page in a fresh browser profile, with what went wrong in it and what it asked to confirm. */
interface OpenedPage {
  page: Page;
  /** Page errors and console errors, for a test to expect none. */
  problems: string[];
  /** The text of every confirmation the page asked (each accepted, as a person clicking OK). */
  confirmations: string[];
}

/** A fresh profile's locale (es-CO unless named), width (phone unless named) and time zone. */
interface PageOptions {
  locale?: string;
  viewport?: keyof typeof VIEWPORTS;
  timezoneId?: string;
}

export interface BrowserSuite {
  h: Harness;
  /** The served app's origin, e.g. http://127.0.0.1:PORT. */
  baseUrl: string;
  openPage(options?: PageOptions): Promise<OpenedPage>;
  /** Closes the pages, Chromium, the server, the assets and the harness. */
  close(): Promise<void>;
}

/**
 * What a Chromium suite stands on: the in-process app (a harness made with `harness`, seeded by
 * `prepare`) served over loopback HTTP with the worker's static assets, and headless Chromium.
 * Whatever started is stopped again when starting fails. Chromium is launched here and awaited by
 * the first page, so without it every test fails, saying how to install it. The per-IP rate limit
 * is lifted: every request comes from loopback and the harness clock never ends its minute, while
 * a page loads its assets and polls.
 */
export async function startBrowserSuite(options: {
  harness: HarnessOptions;
  prepare?: (h: Harness) => Promise<void>;
}): Promise<BrowserSuite> {
  const h = await createHarness({
    ...options.harness,
    env: { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", ...options.harness.env },
  });
  const contexts: BrowserContext[] = [];
  let assets: Awaited<ReturnType<typeof buildWorkerAssets>> | undefined;
  let served: ServedApp | undefined;
  let browser: Promise<Browser> | undefined;
  const close = async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await (await browser?.catch(() => undefined))?.close();
    await served?.close();
    await assets?.remove();
    await h.close();
  };
  try {
    await options.prepare?.(h);
    assets = await buildWorkerAssets();
    served = await serveOverHttp(h.app, { assetsDir: assets.dir });
  } catch (error) {
    await close();
    throw error;
  }
  const launching = launchChromium();
  browser = launching;
  // The failure is the first page's to report; until then it is not an unhandled rejection.
  launching.catch(() => {});
  const baseUrl = served.url;

  async function openPage(opening: PageOptions = {}): Promise<OpenedPage> {
    const context = await (await launching).newContext({
      viewport: VIEWPORTS[opening.viewport ?? "phone"],
      locale: opening.locale ?? "es-CO",
      ...(opening.timezoneId ? { timezoneId: opening.timezoneId } : {}),
    });
    contexts.push(context);
    // The copy buttons write to the clipboard, and a test reads it back.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000); // a step that never comes fails well within the test's time
    const problems: string[] = [];
    const confirmations: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      // Chromium logs every 4xx answer as a failed resource load; the tests that want a refusal
      // (a 403, a 404, the miniapp's 409) assert it themselves.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
        problems.push(`console error: ${message.text()}`);
      }
    });
    page.on("dialog", async (dialog) => {
      confirmations.push(dialog.message());
      await dialog.accept();
    });
    return { page, problems, confirmations };
  }

  return { h, baseUrl, openPage, close };
}

// ---- the injected wallet ----------------------------------------------------------------------

class WalletRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type WalletRequest = (method: string, params: unknown[]) => Promise<unknown>;

const BRIDGE = "__copmTestWallet";

/**
 * `window.ethereum` in the page, an EIP-1193 provider whose every request goes to `handle` in Node
 * (through `page.exposeFunction`); errors keep their EIP-1193 `code`. Installed before any page
 * script runs, on every navigation.
 */
export async function injectWallet(page: Page, handle: WalletRequest): Promise<void> {
  await page.exposeFunction(BRIDGE, async (method: string, params: unknown[] | undefined) => {
    try {
      return { result: (await handle(method, params ?? [])) ?? null };
    } catch (error) {
      const code = error instanceof WalletRpcError ? error.code : -32603;
      return { error: { code, message: error instanceof Error ? error.message : String(error) } };
    }
  });
  await page.addInitScript({
    content: `(() => {
      const listeners = new Map();
      window.ethereum = {
        isCopmTestWallet: true,
        async request(args) {
          if (!args || typeof args.method !== "string") throw Object.assign(new Error("invalid request"), { code: -32600 });
          const answer = await window.${BRIDGE}(args.method, Array.isArray(args.params) ? args.params : []);
          if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
          return answer.result;
        },
        on(event, listener) { listeners.set(listener, event); return this; },
        removeListener(event, listener) { listeners.delete(listener); return this; },
      };
    })();`,
  });
}

interface SentTransaction {
  from: string;
  to: Hex;
  data: Hex;
  value: string;
  chainId?: string;
  hash: Hex;
}

/**
 * A wallet holding `account` that can reach only `chain` (the harness's destination chain), as a
 * person's wallet would behave: it starts on another chain (`startChainId`), answers accounts in
 * lower case as many wallets do, switches only to the chain it knows (4902 otherwise), and signs and
 * sends with viem only on that chain and from that account. Every request and sent transaction is
 * recorded for the test.
 */
export function harnessWallet(chain: SandboxChain, account: PrivateKeyAccount, startChainId = 1) {
  const { reader, wallet } = clientsOn(chain, account);
  let chainId = startChainId;
  const requests: Array<{ method: string; params: unknown[] }> = [];
  const sent: SentTransaction[] = [];
  const handle: WalletRequest = async (method, params) => {
    requests.push({ method, params });
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address.toLowerCase()];
      case "eth_chainId":
        return toHex(chainId);
      case "wallet_switchEthereumChain": {
        const wanted = Number((params[0] as { chainId?: string } | undefined)?.chainId);
        if (wanted !== chain.chainId) throw new WalletRpcError(4902, `Unrecognized chain ID ${wanted}`);
        chainId = wanted;
        return null;
      }
      case "personal_sign": {
        const [data, from] = params as [Hex, string];
        if (from?.toLowerCase() !== account.address.toLowerCase()) {
          throw new WalletRpcError(4100, `${from} is not this wallet's account`);
        }
        return account.signMessage({ message: { raw: data } });
      }
      case "eth_sendTransaction": {
        const tx = params[0] as Omit<SentTransaction, "hash">;
        if (chainId !== chain.chainId) throw new WalletRpcError(4901, `the wallet is on chain ${chainId}`);
        if (tx.chainId !== undefined && Number(tx.chainId) !== chainId) {
          throw new WalletRpcError(-32602, `chainId ${tx.chainId} is not the wallet's chain`);
        }
        if (tx.from.toLowerCase() !== account.address.toLowerCase()) {
          throw new WalletRpcError(4100, `${tx.from} is not this wallet's account`);
        }
        const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value ?? 0) });
        sent.push({ ...tx, hash });
        return hash;
      }
      case "eth_getTransactionReceipt":
      case "eth_blockNumber":
      case "eth_getBalance":
      case "eth_call":
        if (chainId !== chain.chainId) throw new WalletRpcError(4901, `the wallet is on chain ${chainId}`);
        return reader.request({ method, params } as never);
      default:
        throw new WalletRpcError(4200, `unsupported method ${method}`);
    }
  };
  return { handle, requests, sent, address: account.address };
}

// ---- screenshots -----------------------------------------------------------------------------

/**
 * The whole page at desktop and phone widths, as .data/screenshots/<name>-desktop.png and
 * -phone.png; the page is left at `restore` width.
 */
export async function screenshotBoth(
  page: Page,
  name: string,
  restore: keyof typeof VIEWPORTS = "phone",
): Promise<string[]> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const paths: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    const path = join(SCREENSHOT_DIR, `${name}-${label}.png`);
    await page.screenshot({ path, fullPage: true, animations: "disabled", caret: "hide" });
    paths.push(path);
  }
  await page.setViewportSize(VIEWPORTS[restore]);
  return paths;
}
