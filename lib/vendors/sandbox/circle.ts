import {
  type Account,
  encodeAbiParameters,
  getAbiItem,
  type Hex,
  keccak256,
  parseEventLogs,
  sliceHex,
  zeroHash,
} from "viem";
import { tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { chainUnavailable } from "../../kernel/chain/failure";
import { asksForwarding as hookAsksForwarding } from "../../kernel/chain/forwarding";
import { type LegChain, requiredContract, requiredDomain } from "../../kernel/chain/leg-chain";
import { delayElapsed, receiptOrUndefined } from "../../kernel/chain/receipt";
import type { Clock } from "../../kernel/clock";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import { operatorWallet, sendUnlessDone } from "../../sandbox/operator";
import type { Attestation, AttestationProvider } from "../../settlement/leg-ports";
import { sandboxForwardingFee } from "./forwarding-fee";
import { sandboxForwarderAbi } from "./leg-abis";

const PROVIDER = "sandbox-circle";

export interface SandboxCircleOptions {
  /** Where users burn: its TokenMessengerV2 emits the DepositForBurn read here. */
  source: LegChain;
  /** Where the Forwarding Service mints: its sandbox messenger's `forwardMint`. */
  intermediate: LegChain;
  /** The sandbox operator, owner of the intermediate messenger. */
  operator: Account;
  /** How long after the burn's block Circle attests (and forwards), by `clock`. */
  attestationDelayMs: number;
  clock: Clock;
  timeoutMs?: number;
}

/**
 * Circle for the sandbox chains: Iris and the Forwarding Service in one. A burn is pending until
 * `attestationDelayMs` after its block's timestamp has passed by the injected clock; then the
 * attestation is complete and, for a burn that asked for forwarding to the intermediate domain, the
 * operator mints it there with the sandbox messenger's `forwardMint` (amount less
 * `sandboxForwardingFee`), as Circle would. The messenger refuses a second mint for the same burn,
 * so asking again only reports the mint already made. Like Iris, it reports a burn it cannot see
 * (not mined, reverted, no DepositForBurn) as pending.
 */
export function sandboxCircle(options: SandboxCircleOptions): AttestationProvider {
  const { source, intermediate, clock } = options;
  const sourceDomain = requiredDomain(source);
  const intermediateDomain = requiredDomain(intermediate);
  const sourceMessenger = requiredContract(source, "tokenMessenger").toLowerCase();
  const forwarder = requiredContract(intermediate, "tokenMessenger");
  const wallet = operatorWallet(intermediate, options.operator);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  const isForwarded = (burnTxHash: Hex) =>
    intermediate.client.readContract({
      address: forwarder,
      abi: sandboxForwarderAbi,
      functionName: "forwarded",
      args: [burnTxHash],
    });

  async function forwardTxHashOf(burnTxHash: Hex): Promise<Hex | undefined> {
    const [log] = await intermediate.client.getLogs({
      address: forwarder,
      event: getAbiItem({ abi: sandboxForwarderAbi, name: "MintForwarded" }),
      args: { sourceBurnTxHash: burnTxHash },
      fromBlock: 0n,
    });
    return log?.transactionHash ?? undefined;
  }

  async function attest(burnTxHash: Hex): Promise<Attestation> {
    const receipt = await receiptOrUndefined(source.client, burnTxHash);
    if (receipt?.status !== "success") return { status: "pending" };
    const burn = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "DepositForBurn",
      logs: receipt.logs,
    }).find((log) => log.address.toLowerCase() === sourceMessenger);
    if (!burn) return { status: "pending" };
    if (!(await delayElapsed(source.client, receipt.blockNumber, options.attestationDelayMs, clock.now()))) {
      return { status: "pending" };
    }

    const eventNonce = sandboxNonce(sourceDomain, burnTxHash, burn.logIndex);
    const { amount, maxFee, destinationDomain, destinationCaller, hookData, mintRecipient } = burn.args;
    const asksForwarding =
      destinationDomain === intermediateDomain &&
      destinationCaller === zeroHash &&
      hookAsksForwarding(hookData);
    // Attested, but nobody forwards it: someone must mint with the attestation, as on the real chain.
    if (!asksForwarding) return { status: "complete", eventNonce };

    const feeExecuted = sandboxForwardingFee(amount, maxFee);
    const recipient = evmAddressOf(mintRecipient);
    // A recipient that is no EVM address cannot be minted to: Circle's forward fails for good.
    if (!recipient) return { status: "complete", eventNonce, forwardState: "failed", feeExecuted };

    await sendUnlessDone({
      provider: PROVIDER,
      what: `forward the mint of burn ${burnTxHash}`,
      chain: intermediate,
      wallet,
      done: () => isForwarded(burnTxHash),
      send: (operator) =>
        operator.writeContract({
          address: forwarder,
          abi: sandboxForwarderAbi,
          functionName: "forwardMint",
          args: [burnTxHash, recipient, amount, feeExecuted],
        }),
    });
    const forwardTxHash = await forwardTxHashOf(burnTxHash);
    return {
      status: "complete",
      eventNonce,
      ...(forwardTxHash ? { forwardTxHash } : {}),
      forwardState: forwardTxHash ? "confirmed" : "pending",
      feeExecuted,
    };
  }

  return {
    async attestation({ sourceDomain: asked, burnTxHash }) {
      if (asked !== sourceDomain) {
        throw new RangeError(`the sandbox burns on domain ${sourceDomain}, not ${asked}`);
      }
      try {
        return await withinDeadline(PROVIDER, timeoutMs, () => attest(burnTxHash));
      } catch (error) {
        throw chainUnavailable(PROVIDER, error);
      }
    },
  };
}

/**
 * CCTP v2 nonces are 32-byte values Circle assigns; the sandbox derives one from the burn itself,
 * so asking twice reports the same.
 */
function sandboxNonce(sourceDomain: number, burnTxHash: Hex, logIndex: number): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "uint32" }, { type: "bytes32" }, { type: "uint256" }],
      [sourceDomain, burnTxHash, BigInt(logIndex)],
    ),
  );
}

/** The EVM address in a CCTP bytes32 recipient, or undefined when its upper 12 bytes are not zero. */
function evmAddressOf(recipient: Hex): Hex | undefined {
  if (BigInt(sliceHex(recipient, 0, 12)) !== 0n) return undefined;
  const address = sliceHex(recipient, 12, 32);
  return BigInt(address) === 0n ? undefined : address;
}
