/**
 * The settlement account's payment engine (docs/adr/0002-settlement-account-queue.md): each payment
 * of an order made at most once, recorded before it is broadcast, pipelined per account and chain.
 */

export { sendOnce } from "./send-once";
export { revertedVersions, setAsideReverted } from "./set-aside";
export {
  ALLOWANCE_PURPOSE,
  type FaultInjector,
  type FaultPoint,
  type Payment,
  type PaymentRequest,
} from "./types";
