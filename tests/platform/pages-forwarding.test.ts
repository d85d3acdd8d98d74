import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../lib/composition/app";
import type { PagesWorker } from "../../lib/http/deps";
import { createHarness, type Harness } from "../harness/app";

/**
 * The API worker's hand-over to the pages worker (lib/http/pages.ts, forwardPages) through the API
 * worker's whole middleware chain (createBaseApp): what the pages worker receives, and what the client
 * gets back. The pages worker is a recorder here, so nothing the pages app does can hide a loss.
 */

const SOCKET = "198.51.100.7";
const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

interface Received {
  method: string;
  url: string;
  headers: Headers;
  body: Uint8Array;
}

function recorder(): { pages: PagesWorker; received: Received[] } {
  const received: Received[] = [];
  const pages: PagesWorker = {
    async fetch(request) {
      received.push({
        method: request.method,
        url: request.url,
        headers: new Headers(request.headers),
        body: new Uint8Array(await request.arrayBuffer()),
      });
      const headers = new Headers({
        location: "/dashboard/keys?done=issued",
        "content-type": "text/html; charset=utf-8",
        "x-pages-own": "kept",
        "cache-control": "no-store",
      });
      headers.append("set-cookie", "copm_dashboard_session=abc; Path=/dashboard; HttpOnly");
      headers.append("set-cookie", "copm_dashboard_lang=es; Path=/dashboard; HttpOnly");
      return new Response(request.method === "HEAD" ? null : "<p>page</p>", { status: 303, headers });
    },
  };
  return { pages, received };
}

let h: Harness;
let api: ReturnType<typeof buildApp>;
let received: Received[];

beforeAll(async () => {
  h = await createHarness();
  const recorded = recorder();
  received = recorded.received;
  api = buildApp({ ...h.deps, pages: recorded.pages });
}, 60_000);

afterAll(async () => h?.close());

const last = () => {
  const one = received.at(-1);
  if (!one) throw new Error("nothing reached the pages worker");
  return one;
};

describe("what the pages worker receives", () => {
  it("a dashboard form post: the same method, URL, body bytes and the headers the frame reads", async () => {
    const body = "name=ci+key&_csrf=t0ken&integration=int_1";
    const response = await api.request(
      "http://api.test/dashboard/keys?integration=int_1",
      {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: "http://api.test",
          cookie: "copm_dashboard_csrf=seed; copm_dashboard_session=s",
          "sec-fetch-site": "same-origin",
        },
        body,
      },
      from(SOCKET),
    );
    expect(response.status).toBe(303);
    const got = last();
    expect(got.method).toBe("POST");
    expect(got.url).toBe("http://api.test/dashboard/keys?integration=int_1");
    expect(new TextDecoder().decode(got.body)).toBe(body);
    expect(got.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(got.headers.get("origin")).toBe("http://api.test");
    expect(got.headers.get("cookie")).toBe("copm_dashboard_csrf=seed; copm_dashboard_session=s");
    expect(got.headers.get("sec-fetch-site")).toBe("same-origin");
  });

  it("a multipart body and a binary one arrive byte for byte, the boundary with them", async () => {
    const form = new FormData();
    form.set("note", "ñandú ✓");
    form.set("file", new Blob([new Uint8Array([0, 1, 2, 0xfe, 0xff])]), "x.bin");
    const multipart = new Request("http://api.test/dashboard/sandbox", { method: "POST", body: form });
    const sent = new Uint8Array(await multipart.clone().arrayBuffer());
    await api.request(multipart, undefined, from(SOCKET));
    expect(last().headers.get("content-type")).toBe(multipart.headers.get("content-type"));
    expect(last().body).toEqual(sent);

    const bytes = new Uint8Array(256).map((_, i) => i);
    await api.request(
      "http://api.test/dashboard/sign-in",
      { method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes },
      from(SOCKET),
    );
    expect(last().body).toEqual(bytes);
  });

  it("a JSON body the API worker's guards already read arrives unchanged", async () => {
    const body = '{"a":"ñ","b":[1,2,{"c":null}]}';
    await api.request(
      "http://api.test/dashboard/sign-in",
      { method: "POST", headers: { "content-type": "application/json" }, body },
      from(SOCKET),
    );
    expect(new TextDecoder().decode(last().body)).toBe(body);
  });

  it("GET and HEAD go without a body, HEAD as HEAD", async () => {
    await api.request("http://api.test/dashboard", { method: "HEAD" }, from(SOCKET));
    expect(last().method).toBe("HEAD");
    expect(last().body.length).toBe(0);
    await api.request("http://api.test/miniapp?lang=en", {}, from(SOCKET));
    expect(last().method).toBe("GET");
    expect(last().url).toBe("http://api.test/miniapp?lang=en");
  });

  it("forwards /dashboard, /dashboard/* and /miniapp only", async () => {
    for (const path of [
      "/dashboard",
      "/dashboard/sign-in/two-factor",
      "/dashboard/orders/ord_1",
      "/miniapp",
    ]) {
      const before = received.length;
      await api.request(`http://api.test${path}`, {}, from(SOCKET));
      expect(received.length, path).toBe(before + 1);
    }
    for (const path of ["/dashboards", "/miniapp/other", "/miniapps", "/api/breb/kyc"]) {
      const before = received.length;
      await api.request(`http://api.test${path}`, {}, from(SOCKET));
      expect(received.length, path).toBe(before);
    }
  });

  it("a body over the API worker's limit is 413 there and never reaches the pages worker", async () => {
    const before = received.length;
    const response = await api.request(
      "http://api.test/dashboard/sign-in",
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `a=${"x".repeat(70 * 1024)}`,
      },
      from(SOCKET),
    );
    expect(response.status).toBe(413);
    expect(received.length).toBe(before);
  });
});

describe("the client's address on the hop", () => {
  it("is the one the API worker's runtime vouches for, whatever the client sent under the name, in any case, once or twice", async () => {
    await api.request(
      "http://api.test/dashboard/sign-in",
      {
        headers: [
          ["X-Copm-Client-Address", "203.0.113.66"],
          ["x-copm-client-address", "203.0.113.67"],
          ["X-COPM-CLIENT-ADDRESS", "203.0.113.68"],
        ],
      },
      from(SOCKET),
    );
    expect(last().headers.get("x-copm-client-address")).toBe(SOCKET);
  });

  it("is absent when the runtime cannot place the client, even if the client named one", async () => {
    await api.request("http://api.test/dashboard/sign-in", {
      headers: { "X-Copm-Client-Address": "203.0.113.66" },
    });
    expect(last().headers.get("x-copm-client-address")).toBeNull();
  });

  it("goes with the request's id, and the client sees the same id", async () => {
    const response = await api.request("http://api.test/dashboard", {}, from(SOCKET));
    const id = last().headers.get("x-request-id");
    expect(id).toMatch(/^req_/);
    // The API worker's own X-Request-Id (set before the handler) is not on a returned Response by
    // itself: the client's id is whatever the pages worker answers with, which must be this one.
    expect(response.headers.get("x-request-id") ?? id).toBe(id);
  });
});

describe("what the client gets back", () => {
  it("the pages worker's answer as it was: status, Location, both cookies, its own headers and body, plus nosniff", async () => {
    const response = await api.request("http://api.test/dashboard/keys", {}, from(SOCKET));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard/keys?done=issued");
    expect(response.headers.getSetCookie()).toEqual([
      "copm_dashboard_session=abc; Path=/dashboard; HttpOnly",
      "copm_dashboard_lang=es; Path=/dashboard; HttpOnly",
    ]);
    expect(response.headers.get("x-pages-own")).toBe("kept");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("<p>page</p>");
  });

  it("a HEAD's answer has no body", async () => {
    const response = await api.request("http://api.test/dashboard", { method: "HEAD" }, from(SOCKET));
    expect(response.status).toBe(303);
    expect(await response.text()).toBe("");
  });

  it("without the PAGES binding, the pages' paths say the binding is missing: 503 PAGES_UNCONFIGURED, not 404", async () => {
    const { pages: _none, ...deps } = h.deps;
    const unbound = buildApp(deps);
    for (const path of ["/dashboard", "/dashboard/keys", "/miniapp"]) {
      const response = await unbound.request(`http://api.test${path}`, {}, from(SOCKET));
      expect(response.status, path).toBe(503);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("PAGES_UNCONFIGURED");
    }
    expect((await unbound.request("http://api.test/health", {}, from(SOCKET))).status).not.toBe(503);
  });
});

describe("per-address limits across the hop, with the real pages app (the harness's binding)", () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await createHarness({ env: { RATE_LIMIT_PER_IP_PER_MINUTE: "3" } });
  }, 60_000);
  afterAll(async () => limited?.close());

  const view = (forged: Record<string, string>, env?: object) =>
    limited.app.request("/dashboard/sign-in", { headers: forged }, env);

  it("a client cannot buy a fresh budget by naming addresses in the header, in any case", async () => {
    const forged = ["X-Copm-Client-Address", "x-copm-client-address", "X-COPM-Client-Address"];
    for (const [i, name] of forged.entries()) {
      expect((await view({ [name]: `203.0.113.${i + 1}` }, from("198.51.100.20"))).status).toBe(200);
    }
    const fourth = await view({ "x-copm-client-address": "203.0.113.99" }, from("198.51.100.20"));
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("retry-after")).toBe("60");
    expect((await view({}, from("198.51.100.21"))).status).toBe(200);
  });

  it("clients the runtime cannot place share one budget, whatever address they name", async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await view({ "x-copm-client-address": `192.0.2.${i + 1}` })).status).toBe(200);
    }
    expect((await view({ "x-copm-client-address": "192.0.2.99" })).status).toBe(429);
  });
});
