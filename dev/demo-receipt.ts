import type { Receipt } from "@copm/integrations-sdk";
import { formatUnits } from "viem";

const DECIMALS: Record<string, number> = { USDC: 6, USDT: 6, USDm: 18, COPm: 18, COP: 0 };
const shown = (amount: string, token: string) =>
  `${formatUnits(BigInt(amount), DECIMALS[token] ?? 0)} ${token}`;

/** Prints a receipt's legs, one line each: amounts in and out, fees, chain and transaction. */
export function printReceiptLegs(receipt: Receipt, log: (line: string) => void): void {
  for (const leg of receipt.legs) {
    const fees = leg.fees.map((fee) => `${fee.type} fee ${shown(fee.amount, fee.token)}`).join(", ");
    log(
      `   ${leg.leg.padEnd(12)} ${shown(leg.amountIn, leg.tokenIn)} → ${shown(leg.amountOut, leg.tokenOut)}` +
        `${fees ? ` (${fees})` : ""}  chain ${leg.chainId}${leg.txHash ? ` ${leg.txHash.slice(0, 12)}…` : ""}`,
    );
  }
}

/**
 * Prints a delivered order's receipt, leg by leg, and checks that it sums: the burn (or, from the
 * intermediate chain, the deposit, which pays Circle nothing) is Circle's fee,
 * the service's fee (and the organization's own, when it charges one), the route's input and what
 * the order still holds; the route's output went to
 * Mento whole and Mento's output to the user whole. Throws when it does not.
 */
export function printSettlementReceipt(receipt: Receipt, log: (line: string) => void): void {
  printReceiptLegs(receipt, log);
  const one = (kind: string) => {
    const leg = receipt.legs.find((candidate) => candidate.leg === kind);
    if (!leg) throw new Error(`the receipt has no ${kind} leg`);
    return leg;
  };
  const fee = (type: string) => BigInt(receipt.fees.find((entry) => entry.type === type)?.amount ?? "0");
  const held = receipt.residue.reduce(
    (sum, entry) => sum + (entry.token === "USDC" ? BigInt(entry.amount) : 0n),
    0n,
  );
  const start = receipt.legs.some((leg) => leg.leg === "deposit") ? "deposit" : "burn";
  const sent = BigInt(one(start).amountIn);
  const parts = fee("circle") + fee("service") + fee("partner") + BigInt(one("route").amountIn) + held;
  const usdc = (units: bigint) => formatUnits(units, 6);
  log(
    `   sums: ${start === "burn" ? "burned" : "deposited"} ${usdc(sent)} USDC = Circle ${usdc(fee("circle"))} + service ${usdc(fee("service"))}` +
      `${fee("partner") > 0n ? ` + partner ${usdc(fee("partner"))}` : ""} + route ${usdc(BigInt(one("route").amountIn))} + held ${usdc(held)}`,
  );
  if (sent !== parts) throw new Error(`the receipt does not sum: ${sent} in, ${parts} accounted for`);
  if (
    one("route").amountOut !== one("exchange").amountIn ||
    one("exchange").amountOut !== one("delivery").amountOut
  )
    throw new Error("the receipt's USDm or COPm do not carry through the exchange to the delivery");
  if (receipt.residue.some((entry) => entry.token !== "USDC"))
    throw new Error(`the order still holds ${JSON.stringify(receipt.residue)}`);
}
