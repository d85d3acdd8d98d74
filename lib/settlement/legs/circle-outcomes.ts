import type { LegOutcome } from "./outcome";

/**
 * Every outcome Circle can report of an order's burn (Iris `GET /v2/messages`, the forwarded mint on
 * the intermediate chain) and what Circle's leg (circle.ts) does with it, for docs/outcomes.md. A
 * row is added with the branch that handles it.
 */
export const CIRCLE_OUTCOMES = {
  pending: {
    reported: "Iris: no message yet, or `pending_confirmations` with no `delayReason`",
    does: "asks again within the service's Iris budget, less often the longer it waits",
    endsIn: "`BURNED`; `STUCK` past the `BURNED` deadline, and still asked",
  },
  delayed: {
    reported: "Iris: pending with a `delayReason` (`insufficient_fee`, `amount_above_max`, …)",
    does: "an `ATTESTATION_DELAYED` entry with Circle's reason, once; asks again",
    endsIn: "`BURNED` until attested; `STUCK` past the `BURNED` deadline",
  },
  attested: {
    reported:
      "Iris: `complete`, the message whose own bytes carry the order's burn (destination, recipient, amount, commitment), with its nonce",
    does: "keeps the message, its attestation and nonce (`ATTESTED`); the mint is then found by that nonce",
    endsIn: "`ATTESTED`",
  },
  forwarded: {
    reported:
      "the chain: the nonce used, and its `MessageReceived` with the messenger's mint to the settlement account",
    does: "reads what was minted and Circle's fee (`FORWARDED_MINT`, `mintedBy` circle, service or other)",
    endsIn: "`MINTED`",
  },
  forward_failed: {
    reported: "Iris: `forwardState` `FAILED`",
    does: "`FORWARD_FAILED`, then relays Circle's attested message itself (`receiveMessage`, a recorded `relay` payment), `MINT_RELAYED` once it mints",
    endsIn: "`MINTED`",
  },
  forward_overdue: {
    reported: "no mint by the `ATTESTED` deadline, whatever Iris says of the forward",
    does: "as `forward_failed`, with reason `forward_overdue` (whoever mints first, the nonce mints once)",
    endsIn: "`MINTED`",
  },
  attestation_expired: {
    reported: "the attested message's `expirationBlock` has passed before anyone relayed it",
    does: "`ATTESTATION_DELAYED` (`attestation_expired`); asks Circle to re-attest (`POST /v2/reattest/{nonce}`) and relays the fresh message",
    endsIn: "`MINTED`",
  },
  mint_short: {
    reported: "the mint is less than the route needs",
    does: "marks the order `STUCK` for the operator (the return is still open to it)",
    endsIn: "`ATTESTED`, `STUCK`",
  },
  not_the_orders: {
    reported: "the only attested message to relay is not the order's burn",
    does: "relays nothing; marks the order `STUCK` for the operator",
    endsIn: "`ATTESTED`, `STUCK`",
  },
} satisfies Record<string, LegOutcome>;
