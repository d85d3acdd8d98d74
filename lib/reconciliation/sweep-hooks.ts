import type { SweepHook } from "../kernel/sweep";
import { reconcileStep } from "./run";

/** The daily reconciliation, a batch per sweep (lib/reconciliation/run.ts). */
export const reconcileReceipts: SweepHook = {
  name: "reconcile-receipts",
  run: reconcileStep,
};
