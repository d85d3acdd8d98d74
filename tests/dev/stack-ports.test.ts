import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "../../dev/loopback-http";
import { stackPorts } from "../../dev/stack-ports";

describe("a local stack's ports", () => {
  const servers: Server[] = [];
  const server = () => {
    const made = createServer();
    servers.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((made) => new Promise((resolve) => made.close(resolve))));
  });

  it("are the familiar ones on the default PORT and move with another PORT", () => {
    expect(stackPorts(8787)).toEqual({
      mailbox: { prefer: 8025 },
      kyc: { prefer: 8026 },
      breb: { prefer: 8027 },
      circle: { prefer: 8028 },
      aggregator: { prefer: 8029 },
      source: { prefer: 8545 },
      intermediate: { prefer: 8546 },
      destination: { prefer: 8547 },
      sourceB: { prefer: 8548 },
      inspector: { prefer: 9229 },
    });
    const moved = stackPorts(8797);
    expect([moved.mailbox, moved.kyc, moved.source, moved.destination, moved.inspector]).toEqual([
      { prefer: 8035 },
      { prefer: 8036 },
      { prefer: 8555 },
      { prefer: 8557 },
      { prefer: 9239 },
    ]);
  });

  it("leave a port the move puts out of reach to the OS", () => {
    // 8025 - 7787 is below 1024 (privileged); 9229 + 56748 is past 65535.
    expect(stackPorts(1000).mailbox).toEqual({ prefer: 0 });
    expect(stackPorts(65_535).inspector).toEqual({ prefer: 0 });
  });

  it("give way to a free port when the preferred one is taken, and keep it when free", async () => {
    const holder = await listen(server());
    const beside = await listen(server(), { port: { prefer: holder.port } });
    expect(beside.port).not.toBe(holder.port);

    const free = await listen(server());
    await new Promise((resolve) => servers[servers.length - 1]?.close(resolve));
    expect((await listen(server(), { port: { prefer: free.port } })).port).toBe(free.port);
  });

  it("fail on a taken fixed port, as before", async () => {
    const holder = await listen(server());
    await expect(listen(server(), { port: holder.port })).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});
