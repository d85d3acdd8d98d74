import type { NetworkHooks } from "hardhat/types/hooks";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { JsonRpcRequest } from "hardhat/types/providers";
import type { Clock } from "../../lib/kernel/clock";

/** Requests that mine a block (automine mines one per sent transaction). */
const MINING_METHODS = new Set(["eth_sendTransaction", "eth_sendRawTransaction", "evm_mine", "hardhat_mine"]);

/**
 * Makes every EDR network of `hre` stamp the blocks it mines with `clock`'s time (whole seconds, never
 * before the latest block): before each request that mines, or that simulates on the pending block,
 * it sets the next block's timestamp. The networks must allow blocks with the same timestamp, since
 * a clock that does not move between two transactions stamps both blocks alike.
 *
 * EDR's own time runs with the wall clock from the network's initial date: a service on an injected
 * clock would otherwise compare its "now" with block times from another clock, and a delay counted
 * from a block's timestamp would elapse never or at once. Under this hook, moving the clock is the
 * only way to move chain time; `evm_increaseTime` and a caller's own `evm_setNextBlockTimestamp` are
 * overridden.
 */
export function stampBlocksFromClock(hre: HardhatRuntimeEnvironment, clock: Clock): void {
  // One lock per network connection: the timestamp set and the request it is for must not
  // interleave with another pair, or a block could be mined on a timestamp set for a later one.
  const locks = new WeakMap<object, Lock>();
  const handlers: Partial<NetworkHooks> = {
    async onRequest(context, connection, request, next) {
      if (!needsClockTime(request)) return next(context, connection, request);
      let lock = locks.get(connection);
      if (!lock) {
        lock = new Lock();
        locks.set(connection, lock);
      }
      return lock.run(async () => {
        // Through the connection's provider, so these two requests take the whole hook chain too;
        // neither is one this handler locks on, so they cannot wait on the lock held here.
        const latest = (await connection.provider.request({
          method: "eth_getBlockByNumber",
          params: ["latest", false],
        })) as { timestamp: `0x${string}` };
        const clockSeconds = BigInt(Math.floor(clock.now().getTime() / 1000));
        const latestSeconds = BigInt(latest.timestamp);
        const stamp = clockSeconds > latestSeconds ? clockSeconds : latestSeconds;
        await connection.provider.request({
          method: "evm_setNextBlockTimestamp",
          params: [`0x${stamp.toString(16)}`],
        });
        return next(context, connection, withoutMiningInterval(request));
      });
    },
  };
  hre.hooks.registerHandlers("network", handlers);
}

/** A request that mines, or that runs on the pending block (eth_estimateGas does unless told otherwise). */
function needsClockTime(request: JsonRpcRequest): boolean {
  if (MINING_METHODS.has(request.method) || request.method === "eth_estimateGas") return true;
  if (request.method !== "eth_call" && request.method !== "eth_createAccessList") return false;
  return Array.isArray(request.params) && request.params[1] === "pending";
}

/**
 * `hardhat_mine` stamps the blocks after the first one a fixed interval apart (1 s unless given),
 * which would run chain time ahead of the clock; without an explicit interval, all of them carry the
 * clock's time.
 */
function withoutMiningInterval(request: JsonRpcRequest): JsonRpcRequest {
  if (request.method !== "hardhat_mine") return request;
  const params = Array.isArray(request.params) ? request.params : [];
  if (params.length >= 2) return request;
  return { ...request, params: [params[0] ?? "0x1", "0x0"] };
}

/** Runs tasks one at a time, in call order. */
class Lock {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
