import { parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { erc20Abi, sandboxMintAbi } from "../kernel/chain/abis";
import { EVM_ADDRESS_RULE, parseEvmAddress } from "../kernel/chain/address";
import type { ChainRole } from "../kernel/chain/descriptor";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { amountRule, formatAmount, parseAmount, TOKEN_DECIMALS, type TokenSymbol } from "../kernel/money";
import { assertSandbox } from "./network";
import { operatorWallet } from "./operator";
import { oneOperatorTransactionAtATime } from "./operator-queue";

/** The most one faucet call mints, per token, in whole units. */
const FAUCET_MAXIMUM: Record<TokenSymbol, bigint> = {
  USDC: 100_000n,
  USDT: 100_000n,
  USDm: 100_000n,
  COPm: 400_000_000n,
};
/** A funded address gets at least this much native gas, enough for many approvals and swaps. */
const FAUCET_GAS_FLOOR = parseEther("1");

const CONTRACT_KEY: Record<TokenSymbol, "usdc" | "usdt" | "usdm" | "copm"> = {
  USDC: "usdc",
  USDT: "usdt",
  USDm: "usdm",
  COPm: "copm",
};

export interface FaucetRequest {
  address: string;
  /** The chain by its role (`source`: the default source chain) or by its id; one of the two. */
  chainRole?: ChainRole;
  chainId?: number;
  token: TokenSymbol;
  amount: string;
}

export interface FaucetResult {
  chainRole: ChainRole;
  chainId: number;
  token: TokenSymbol;
  tokenAddress: `0x${string}`;
  address: `0x${string}`;
  amount: string;
  balance: string;
  mintTxHash: `0x${string}`;
  gasTxHash: `0x${string}` | null;
}

/** Mints sandbox tokens (and native gas when low, to an account without code) to an address, with real transactions. */
export async function fundFromFaucet(ctx: ServiceContext, request: FaucetRequest): Promise<FaucetResult> {
  assertSandbox(ctx);
  const recipient = recipientAddress(request.address);
  const decimals = TOKEN_DECIMALS[request.token];
  const parsed = parseAmount(request.amount, decimals);
  if (!parsed.ok) {
    throw new ApiError("INVALID_AMOUNT", {
      problems: [{ field: "body.amount", code: "INVALID_AMOUNT", problem: amountRule(decimals) }],
    });
  }
  const maximum = FAUCET_MAXIMUM[request.token] * 10n ** BigInt(decimals);
  if (parsed.units > maximum) {
    throw new ApiError("ABOVE_MAXIMUM", {
      detail: `The faucet gives at most ${formatAmount(maximum, decimals)} ${request.token} per call.`,
    });
  }

  const chain =
    request.chainId === undefined
      ? ctx.chains.byRole(request.chainRole ?? "source")
      : ctx.chains.byChainId(request.chainId);
  if (!chain && request.chainId !== undefined) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [
        {
          field: "body.chainId",
          code: "INVALID_REQUEST",
          problem: "is not a chain of the sandbox network (GET /api/integrations/sandbox/network lists them)",
        },
      ],
    });
  }
  const operatorKey = ctx.config.SANDBOX_OPERATOR_KEY;
  if (!chain || !operatorKey) {
    throw new ApiError("PROVIDER_UNAVAILABLE", {
      detail: `The sandbox ${request.chainRole ?? "source"} chain is not running.`,
    });
  }
  const tokenAddress = chain.contracts[CONTRACT_KEY[request.token]];
  if (!tokenAddress) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [
        {
          field: "body.token",
          code: "INVALID_REQUEST",
          problem: `${request.token} does not exist on the ${chain.role} chain`,
        },
      ],
    });
  }

  const wallet = operatorWallet(chain, privateKeyToAccount(operatorKey as `0x${string}`));

  const { mintTxHash, gasTxHash } = await oneOperatorTransactionAtATime(chain.rpcUrl, async () => {
    const mintTxHash = await wallet.writeContract({
      address: tokenAddress,
      abi: sandboxMintAbi,
      functionName: "mint",
      args: [recipient, parsed.units],
    });
    const mint = await chain.client.waitForTransactionReceipt({ hash: mintTxHash, timeout: 15_000 });
    if (mint.status !== "success") throw new Error(`sandbox mint ${mintTxHash} reverted`);
    // A contract (a smart wallet) gets no gas: it may refuse a plain transfer, and its owner's key pays.
    const [native, code] = await Promise.all([
      chain.client.getBalance({ address: recipient }),
      chain.client.getCode({ address: recipient }),
    ]);
    if (native >= FAUCET_GAS_FLOOR || (code ?? "0x") !== "0x") return { mintTxHash, gasTxHash: null };
    const gasTxHash = await wallet.sendTransaction({ to: recipient, value: FAUCET_GAS_FLOOR - native });
    await chain.client.waitForTransactionReceipt({ hash: gasTxHash, timeout: 15_000 });
    return { mintTxHash, gasTxHash };
  });

  const balance = await chain.client.readContract({
    address: tokenAddress,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [recipient],
  });
  return {
    chainRole: chain.role,
    chainId: chain.chainId,
    token: request.token,
    tokenAddress,
    address: recipient,
    amount: formatAmount(parsed.units, decimals),
    balance: formatAmount(balance, decimals),
    mintTxHash,
    gasTxHash,
  };
}

function recipientAddress(candidate: string): `0x${string}` {
  const address = parseEvmAddress(candidate);
  if (!address) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [{ field: "body.address", code: "INVALID_REQUEST", problem: EVM_ADDRESS_RULE }],
    });
  }
  return address;
}
