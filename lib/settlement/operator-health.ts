import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { settlementTransactions, vendorCalls } from "../../schema";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { SweepHook } from "../kernel/sweep";
import type { SettlementServices } from "./context";
import { irisBudget, lifiBudget } from "./legs/vendor-polls";

/** The window the settlement account's recent gas use is read over. */
const GAS_WINDOW_DAYS = 7;
/** A balance is low when it would pay fewer than this many days of that use… */
const DAYS_OF_GAS = 3;
/** …or fewer than this many payments of this much gas at today's price, whichever is more. */
const FLOOR_PAYMENTS = 20n;
const FLOOR_GAS_PER_PAYMENT = 200_000n;

interface ChainHealth {
  role: string;
  chainId: number;
  name: string;
  /** The settlement account's native balance, in wei (decimal text), and its threshold. */
  account: string | null;
  balance: string | null;
  threshold: string | null;
  /** What the account's transactions on the chain cost a day over the last week (gas × max fee), in wei. */
  dailyGasSpend: string | null;
  balanceStatus: "ok" | "low" | "unknown";
  headBlock: number | null;
  /** Seconds since the head block's time: a stalled RPC or chain shows here. */
  headAgeSeconds: number | null;
  rpc: "up" | "down";
}

interface VendorHealth {
  vendor: string;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  /** Until when the vendor asked every caller to stay away (a 429), while it does. */
  blockedUntil: string | null;
}

export interface OperatorHealth {
  chains: ChainHealth[];
  vendors: VendorHealth[];
}

/**
 * What the operator watches: per chain, the settlement account's native balance against what its
 * recent transactions cost (low below three days of the last week's daily spend, or below twenty
 * payments of 200,000 gas at today's price), and the head block's age; per polled vendor (Circle's
 * Iris, LI.FI), its last success and last error as every order's calls left them.
 */
export async function operatorHealth(ctx: SettlementServices): Promise<OperatorHealth> {
  const [chains, vendors] = await Promise.all([
    // One row per chain and account of the pool: each account pays its own gas.
    Promise.all(
      ctx.chains.chains.flatMap((chain) =>
        ctx.settlement.accounts.length === 0
          ? [chainHealth(ctx, chain, undefined)]
          : ctx.settlement.accounts.map((account) => chainHealth(ctx, chain, account.address)),
      ),
    ),
    vendorHealth(ctx),
  ]);
  return { chains, vendors };
}

async function chainHealth(
  ctx: SettlementServices,
  chain: ConfiguredChain,
  account: `0x${string}` | undefined,
): Promise<ChainHealth> {
  const base = { role: chain.role, chainId: chain.chainId, name: chain.name, account: account ?? null };
  const now = ctx.clock.now();
  try {
    const [head, balance, gasPrice, spent] = await Promise.all([
      chain.client.getBlock({ blockTag: "latest" }),
      account ? chain.client.getBalance({ address: account }) : Promise.resolve(undefined),
      chain.client.getGasPrice(),
      account ? weeklyGasSpend(ctx, chain, account) : Promise.resolve(0n),
    ]);
    const daily = spent / BigInt(GAS_WINDOW_DAYS);
    const floor = FLOOR_PAYMENTS * FLOOR_GAS_PER_PAYMENT * gasPrice;
    const threshold = daily * BigInt(DAYS_OF_GAS) > floor ? daily * BigInt(DAYS_OF_GAS) : floor;
    return {
      ...base,
      balance: balance?.toString() ?? null,
      threshold: threshold.toString(),
      dailyGasSpend: daily.toString(),
      balanceStatus: balance === undefined ? "unknown" : balance < threshold ? "low" : "ok",
      headBlock: Number(head.number),
      headAgeSeconds: Math.max(0, Math.round(now.getTime() / 1000 - Number(head.timestamp))),
      rpc: "up",
    };
  } catch {
    return {
      ...base,
      balance: null,
      threshold: null,
      dailyGasSpend: null,
      balanceStatus: "unknown",
      headBlock: null,
      headAgeSeconds: null,
      rpc: "down",
    };
  }
}

/** What the account's mined transactions on the chain of the last week could cost at most (gas × max fee). */
async function weeklyGasSpend(
  ctx: SettlementServices,
  chain: ConfiguredChain,
  account: string,
): Promise<bigint> {
  const since = new Date(ctx.clock.now().getTime() - GAS_WINDOW_DAYS * 86_400_000);
  const [row] = await ctx.db
    .select({
      spent: sql<
        string | null
      >`sum((${settlementTransactions.request}->>'gas')::numeric * (${settlementTransactions.request}->>'maxFeePerGas')::numeric)`,
    })
    .from(settlementTransactions)
    .where(
      and(
        eq(settlementTransactions.chainId, chain.chainId),
        eq(settlementTransactions.fromAddress, account.toLowerCase()),
        inArray(settlementTransactions.status, ["success", "reverted"]),
        gt(settlementTransactions.createdAt, since),
      ),
    );
  return BigInt(row?.spent ?? "0");
}

export async function vendorHealth(ctx: SettlementServices): Promise<VendorHealth[]> {
  const rows = await ctx.db.select().from(vendorCalls);
  const now = ctx.clock.now();
  const named = [irisBudget(ctx).vendor, lifiBudget(ctx).vendor];
  const vendors = [...new Set([...named, ...rows.map((row) => row.vendor)])].sort();
  return vendors.map((vendor) => {
    const row = rows.find((candidate) => candidate.vendor === vendor);
    return {
      vendor,
      lastSuccessAt: row?.lastSuccessAt?.toISOString() ?? null,
      lastErrorAt: row?.lastErrorAt?.toISOString() ?? null,
      lastError: row?.lastError ?? null,
      blockedUntil: row?.blockedUntil && row.blockedUntil > now ? row.blockedUntil.toISOString() : null,
    };
  });
}

/**
 * The cron's watch on the settlement account's gas: an `error` line per chain whose balance runs low,
 * every sweep while it does (as the reconciliation logs a discrepancy), for the operator's alerting.
 */
export const watchSettlementGas: SweepHook<SettlementServices> = {
  name: "watch-settlement-gas",
  async run(ctx) {
    const { chains } = await operatorHealth(ctx);
    const low = chains.filter((chain) => chain.balanceStatus === "low");
    for (const chain of low) {
      ctx.log.error("settlement account gas low", {
        chainId: chain.chainId,
        chain: chain.name,
        account: chain.account,
        balance: chain.balance,
        threshold: chain.threshold,
      });
    }
    return low.length;
  },
};
