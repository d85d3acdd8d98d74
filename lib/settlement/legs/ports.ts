/**
 * The observation ports of a settlement order's legs, one per step the service waits on (docs/architecture.md,
 * settlement order lifecycle): Circle's attestation of the source burn (BURNED → ATTESTED), the
 * Forwarding Service's mint of USDC to the settlement account on the intermediate chain
 * (ATTESTED → MINTED), and the aggregator carrying that USDC to USDm on the destination chain
 * (ROUTING → ROUTED). Each answers "where does it stand now"; none waits. Amounts are bigint atomic
 * units, and every adapter fails with a ProviderFailure, never with whatever its transport threw.
 */

type Hex = `0x${string}`;

interface AttestationRequest {
  /** CCTP domain of the chain the burn happened on. */
  sourceDomain: number;
  burnTxHash: Hex;
}

/**
 * Circle's Forwarding Service, as far as Iris reports it: `pending` until the mint is sent,
 * `confirmed` once Circle saw it mined, `failed` when Circle gave up (the service then relays the
 * attested message itself).
 */
export type ForwardState = "pending" | "confirmed" | "failed";

export interface Attestation {
  /** `pending` while Circle has not seen the burn or waits for its confirmations. */
  status: "pending" | "complete";
  /** Circle's nonce of the message, as Iris writes it: MessageReceived names it where it mints. */
  eventNonce?: string;
  /** Circle's message (MessageV2 with its BurnMessageV2 body), once attested. */
  message?: Hex;
  /** The attesters' signatures over the message: with it, anyone may relay `receiveMessage`. */
  attestation?: Hex;
  /** Why Circle has not attested yet, as Iris says it (`insufficient_fee`, …). */
  delayReason?: string;
  /** The intermediate-chain transaction in which the Forwarding Service minted, once sent. */
  forwardTxHash?: Hex;
  forwardState?: ForwardState;
  /** What Circle keeps of the burn (the message's feeExecuted), once attested. */
  feeExecuted?: bigint;
  /**
   * What Iris says the message carries (its decodedMessageBody), readable before the message's own
   * bytes are given: enough to tell which burn of a transaction a pending message is.
   */
  described?: { amount?: bigint; mintRecipient?: Hex; hookData?: Hex };
}

export interface AttestationProvider {
  /** Every message of a burn transaction, one per DepositForBurn, by ascending log index; none while unseen. */
  messages(request: AttestationRequest): Promise<Attestation[]>;
  /** Asks Circle to sign the message with this nonce again (its Fast attestation expired). */
  reattest(nonce: Hex): Promise<void>;
}

export interface ForwardedMintQuery {
  /** The burn's message nonce (Attestation.eventNonce): what links a burn to its one mint. */
  eventNonce: Hex;
  /** The settlement account the burn named as mintRecipient. */
  mintRecipient: Hex;
  /** When the burn was mined: the mint cannot be earlier, so the search starts at this time's block. */
  after?: Date;
  /** The mint transaction Circle reported (Attestation.forwardTxHash): read first, when known. */
  forwardTxHash?: Hex;
}

/** One MintAndWithdraw on the intermediate chain, as TokenMessengerV2 emitted it for the nonce's message. */
export interface ForwardedMint {
  /** What the recipient received: the burned amount less `feeCollected`. */
  amount: bigint;
  feeCollected: bigint;
  txHash: Hex;
  blockNumber: bigint;
  /** Who relayed the message (MessageReceived's caller): Circle's forwarder, the service, or anyone. */
  caller: Hex;
}

export interface ForwardedMintObserver {
  /** The mint of the message with this nonce, whoever relayed it, or undefined while none is seen. */
  forwardedMint(query: ForwardedMintQuery): Promise<ForwardedMint | undefined>;
}

export interface BridgeStatusRequest {
  /** The settlement account's route transaction on the intermediate chain. */
  txHash: Hex;
  fromChainId: number;
  toChainId: number;
}

export interface BridgeStatus {
  /**
   * `done` when the requested token arrived; `partial` when another token arrived on the destination
   * chain instead (LI.FI's DONE/PARTIAL); `refunded` when the input came back to the sender on the
   * chain it left (DONE/REFUNDED); `failed` when neither is known (FAILED, INVALID): the operator
   * looks. The aggregator's reason is in `substatus`.
   */
  status: "pending" | "done" | "partial" | "refunded" | "failed";
  substatus?: string;
  /** The aggregator called the route a failure (LI.FI FAILED), refunded or not. */
  reportedFailed?: boolean;
  /**
   * What arrived, in the received token's atomic units: on the destination chain, or, for
   * `refunded`, back on the chain the route left.
   */
  receivedAmount?: bigint;
  receivedToken?: Hex;
  receivingTxHash?: Hex;
}

export interface BridgeExecutor {
  status(request: BridgeStatusRequest): Promise<BridgeStatus>;
}

export interface LegProviders {
  attestation: AttestationProvider;
  /** Mints on the intermediate chain: a settlement's burn arriving. */
  forwardedMint: ForwardedMintObserver;
  /** Mints on a source chain (by chain id): a return's burn arriving at the user's source address. */
  returnedMint(chainId: number): ForwardedMintObserver;
  bridge: BridgeExecutor;
}
