import { join } from "node:path";
import { parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { AfterWork } from "../lib/kernel/after-work";
import type { ChainDescriptor } from "../lib/kernel/chain/descriptor";
import { systemClock } from "../lib/kernel/clock";
import { privateKeyList } from "../lib/kernel/config/formats";
import { createLogger } from "../lib/kernel/log";
import { reconcileResetChains } from "../lib/settlement";
import { LIFI_RATE_LIMIT } from "./aggregator";
import { startLocalBrebProvider } from "./breb-provider";
import {
  type SandboxNetwork,
  sandboxOperator,
  sandboxPublicClient,
  sandboxWalletClient,
  startSandboxChains,
} from "./chains";
import { IRIS_RATE_LIMIT } from "./circle";
import { openPglite } from "./database";
import { startSandboxKyc } from "./kyc-provider";
import {
  LOCAL_BREB_CALLBACK_SECRET,
  LOCAL_BREB_FEE_WALLET,
  LOCAL_BREB_FEE_WALLET_KEY,
  LOCAL_KYC_CALLBACK_SECRET,
  LOCAL_TWO_FACTOR_SECRETS_KEY,
  LOCAL_VENDOR_PACE,
  LOCAL_WEBHOOK_SECRETS_KEY,
  localSettlementVars,
} from "./local-defaults";
import { type ReissuedKey, reissueLocalLiveKeys } from "./local-keys";
import { type LocalVendors, startLocalVendors } from "./local-vendors";
import { startLocalMailbox } from "./mailbox";
import { localMiniappIntegration } from "./miniapp";
import { startNeonRelay } from "./neon-relay";
import { dataDirIn } from "./paths";
import { servePglite } from "./pglite-server";
import { startLocalQStash } from "./qstash";
import { mainnetUniverse } from "./rehearsal/universe";
import type { StackPorts } from "./stack-ports";

/** Local-only credentials: they sign and guard nothing outside this machine. */
export const LOCAL_QSTASH = {
  token: "local-qstash-token",
  currentSigningKey: "sig_local_current_signing_key_for_dev_only",
  nextSigningKey: "sig_local_next_signing_key_for_dev_only",
};

export interface LocalStackOptions {
  /** Where to keep the data between runs (npm run dev: stackDataDir); absent, everything stays in memory (tests). */
  dataDir?: string;
  /** The servers' ports (npm run dev: stackPorts, preferences); absent, the OS picks each one. */
  ports?: Partial<StackPorts>;
  /** Where the worker will listen: QStash delivers jobs back to this URL. */
  publicUrl: string;
  log?: (line: Record<string, unknown>) => void;
  /**
   * `mainnet`: the chains carry the mainnet chain ids and every contract the mainnet profile names at
   * its mainnet address (dev/rehearsal/universe.ts), and the worker is told the unchanged mainnet
   * profile with only the chains' RPC URLs: the rehearsal. `local` (default): the sandbox chains.
   */
  profile?: "local" | "mainnet";
}

export interface LocalStack {
  /** The variables that point the worker at this stack. */
  workerVars: Record<string, string>;
  /** Where every email the worker sends can be read. */
  mailboxUrl: string;
  /** The sandbox KYC provider, whose pages approve or reject a user. */
  kycUrl: string;
  /** The local BRE-B payout provider and its deposit address on the destination chain. */
  breb: { url: string; depositAddress: string };
  /** The local Circle (Iris) and aggregator (LI.FI) the worker reaches at IRIS_URL and LIFI_URL. */
  vendors: LocalVendors;
  /** Persistent stacks only: live keys of an older local database, re-issued as test keys (shown once). */
  reissuedKeys: ReissuedKey[];
  /** Persistent stacks only: the integration the key-less miniapp routes act as, and whether it is new. */
  miniapp?: { integrationId: string; created: boolean };
  /** The local chains, with the operator account that deployed them. */
  network: SandboxNetwork;
  close(): Promise<void>;
}

/**
 * The stand-ins for the cloud services: Postgres (PGlite behind pglite-socket and the Neon relay,
 * so the worker runs the production Neon driver), QStash (signed, delayed, retried deliveries), the
 * chains (three EDR networks with the sandbox contracts: dev/chains), the email provider (a local
 * mailbox speaking Resend's API), the KYC provider (a sandbox speaking the provider contract and
 * calling back signed), the BRE-B payout provider (paying out against deposits on the local
 * destination chain, calling back signed), and Circle and the aggregator (dev/circle,
 * dev/aggregator: Iris's and LI.FI's APIs over the local chains, with their rate limits).
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closeOne of closers.reverse()) await closeOne().catch(() => {});
  };
  /** A file kept between runs in `part`'s directory; none (in memory) without a data directory. */
  const kept = (part: string, file: string) =>
    options.dataDir ? join(dataDirIn(options.dataDir, part), file) : undefined;
  const ports = options.ports ?? {};
  try {
    const database = await openPglite(options.dataDir ? dataDirIn(options.dataDir, "pglite") : undefined);
    closers.push(database.close);
    const socket = await servePglite(database.pglite);
    closers.push(socket.stop);
    const socketPort = socket.port;

    // PGlite is one session: the relay makes its connections take turns (see dev/neon-relay/session-gate.ts).
    const relay = await startNeonRelay({
      upstream: { host: "127.0.0.1", port: socketPort, user: "postgres" },
      serializeUpstreamSessions: true,
    });
    closers.push(relay.close);

    const qstash = await startLocalQStash({
      ...LOCAL_QSTASH,
      dataFile: kept("qstash", "messages.json"),
      ...(options.log ? { log: options.log } : {}),
    });
    closers.push(qstash.close);

    const mailbox = await startLocalMailbox({
      port: ports.mailbox,
      dataFile: kept("mailbox", "emails.json"),
    });
    closers.push(mailbox.close);
    const kyc = await startSandboxKyc({
      port: ports.kyc,
      callbackSecret: LOCAL_KYC_CALLBACK_SECRET,
      callbackUrl: `${options.publicUrl}/callbacks/kyc`,
    });
    closers.push(kyc.close);

    // On the service's clock, as the tests' chains are: blocks share a second instead of each one
    // running a second ahead, so chain time stays wall time and the sandbox's delays are what they say.
    const mainnet = options.profile === "mainnet";
    const chains = await startSandboxChains({
      ports: {
        source: ports.source,
        sourceB: ports.sourceB,
        intermediate: ports.intermediate,
        destination: ports.destination,
      },
      clock: systemClock,
      ...(mainnet ? mainnetUniverse() : {}),
    });
    closers.push(chains.close);
    // A pool named for the local stack (SETTLEMENT_ACCOUNT_KEYS) gets its gas too.
    await fundLocalServiceAccounts(
      chains.network,
      privateKeyList.parse(process.env.SETTLEMENT_ACCOUNT_KEYS ?? ""),
    );
    const vendors = await startLocalVendors(chains.network, {
      circle: {
        ...LOCAL_VENDOR_PACE.circle,
        rateLimit: IRIS_RATE_LIMIT,
        port: ports.circle,
        ...(options.log ? { log: options.log } : {}),
      },
      aggregator: {
        ...LOCAL_VENDOR_PACE.aggregator,
        rateLimit: LIFI_RATE_LIMIT,
        tickEveryMs: 1_000,
        port: ports.aggregator,
        ...(options.log ? { log: options.log } : {}),
      },
    });
    closers.push(vendors.close);
    const destination = chains.network.chains.find((chain) => chain.role === "destination");
    if (!destination?.contracts.usdc || !destination.contracts.copm)
      throw new Error("no destination chain tokens");
    const breb = await startLocalBrebProvider({
      port: ports.breb,
      stateFile: kept("breb-provider", "payouts.json"),
      callbackSecret: LOCAL_BREB_CALLBACK_SECRET,
      callbackUrl: `${options.publicUrl}/callbacks/breb`,
      chain: {
        chainId: destination.chainId,
        rpcUrl: destination.rpcUrl,
        tokens: { USDC: destination.contracts.usdc, COPm: destination.contracts.copm },
      },
      operatorKey: chains.network.operator.privateKey,
    });
    closers.push(breb.close);
    // The chains live in memory and start afresh; a kept database may still hold orders in flight on
    // the previous ones.
    if (options.dataDir) {
      await reconcileResetChains(
        { db: database.db, clock: systemClock, log: createLogger("warn"), afterWork: new AfterWork() },
        chains.network.chains.map((chain) => chain.chainId),
      );
    }

    const miniapp = options.dataDir
      ? await localMiniappIntegration({ db: database.db, clock: systemClock })
      : undefined;
    const reissuedKeys = options.dataDir
      ? await reissueLocalLiveKeys({ db: database.db, clock: systemClock })
      : [];

    return {
      workerVars: {
        DATABASE_URL: `postgres://postgres@${relay.host}:${socketPort}/postgres`,
        NEON_LOCAL_RELAY: `${relay.host}:${relay.port}`,
        QSTASH_URL: qstash.url,
        QSTASH_TOKEN: LOCAL_QSTASH.token,
        QSTASH_CURRENT_SIGNING_KEY: LOCAL_QSTASH.currentSigningKey,
        QSTASH_NEXT_SIGNING_KEY: LOCAL_QSTASH.nextSigningKey,
        PUBLIC_URL: options.publicUrl,
        ...(mainnet
          ? { CHAIN_PROFILE: "mainnet", ...rpcUrlsOf(chains.network) }
          : {
              CHAIN_PROFILE: "local",
              SANDBOX_NETWORK: JSON.stringify(sandboxNetworkVariable(chains.network)),
              SANDBOX_OPERATOR_KEY: chains.network.operator.privateKey,
            }),
        ...vendors.workerVars,
        WEBHOOK_SECRETS_KEY: LOCAL_WEBHOOK_SECRETS_KEY,
        TWO_FACTOR_SECRETS_KEY: LOCAL_TWO_FACTOR_SECRETS_KEY,
        RESEND_API_KEY: mailbox.apiKey,
        RESEND_API_URL: mailbox.url,
        KYC_PROVIDER_URL: kyc.url,
        KYC_PROVIDER_API_KEY: kyc.apiKey,
        KYC_CALLBACK_SECRET: LOCAL_KYC_CALLBACK_SECRET,
        BREB_PROVIDER_URL: breb.url,
        BREB_PROVIDER_API_KEY: breb.apiKey,
        BREB_CALLBACK_SECRET: LOCAL_BREB_CALLBACK_SECRET,
        BREB_FEE_WALLET: LOCAL_BREB_FEE_WALLET,
        BREB_FEE_WALLET_KEY: LOCAL_BREB_FEE_WALLET_KEY,
        ...(miniapp ? { MINIAPP_INTEGRATION_ID: miniapp.integrationId } : {}),
        ...localSettlementVars(),
        // A pool for the local stack, named in its environment (funded above).
        ...(process.env.SETTLEMENT_ACCOUNT_KEYS
          ? { SETTLEMENT_ACCOUNT_KEYS: process.env.SETTLEMENT_ACCOUNT_KEYS }
          : {}),
      },
      mailboxUrl: mailbox.url,
      kycUrl: kyc.url,
      breb: { url: breb.url, depositAddress: breb.depositAddress },
      vendors,
      ...(miniapp ? { miniapp } : {}),
      reissuedKeys,
      network: chains.network,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * What a deployment is told of the chains' endpoints: each role's RPC URL (SOURCE_RPC_URL the
 * default source chain's) and the other source chains' by chain id (SOURCE_RPC_URLS), nothing else.
 */
export function rpcUrlsOf(network: SandboxNetwork): Record<string, string> {
  const [first, ...others] = network.chains.filter((chain) => chain.role === "source");
  return {
    ...Object.fromEntries(
      network.chains
        .filter((chain) => chain.role !== "source" || chain === first)
        .map((chain) => [`${chain.role.toUpperCase()}_RPC_URL`, chain.rpcUrl]),
    ),
    SOURCE_RPC_URLS: JSON.stringify(Object.fromEntries(others.map((chain) => [chain.chainId, chain.rpcUrl]))),
  };
}

/** What the worker is told of the chains (SANDBOX_NETWORK): never the operator's key. */
export function sandboxNetworkVariable(
  network: SandboxNetwork,
  confirmations: Partial<Record<ChainDescriptor["role"], number>> = {},
): { chains: ChainDescriptor[] } {
  return {
    // Automine: a transaction is final once mined, so one confirmation is the chain's truth.
    chains: network.chains.map((chain) => ({ ...chain, confirmations: confirmations[chain.role] ?? 1 })),
  };
}

/**
 * The service's accounts pay gas like the real ones, and the operator gives them some: the settlement
 * account (and the pool's others, `poolKeys`) on every chain, the fee wallet (its fee returns) on the
 * payout chain.
 */
export async function fundLocalServiceAccounts(
  network: SandboxNetwork,
  poolKeys: readonly string[] = [],
): Promise<void> {
  const settlement = [
    localSettlementVars().SETTLEMENT_ACCOUNT_ADDRESS as `0x${string}`,
    ...poolKeys.map((key) => privateKeyToAccount(key as `0x${string}`).address),
  ];
  await Promise.all(
    network.chains.map(async (chain) => {
      const operator = sandboxWalletClient(chain, sandboxOperator);
      const accounts = chain.role === "destination" ? [...settlement, LOCAL_BREB_FEE_WALLET] : settlement;
      // One after another: both come from the operator's nonce.
      for (const to of accounts) {
        const hash = await operator.sendTransaction({ to, value: parseEther("1000") });
        await sandboxPublicClient(chain).waitForTransactionReceipt({ hash });
      }
    }),
  );
}
