import type { ServiceContext } from "../kernel/context";
import type { ExchangeProvider } from "../settlement";

/** What swaps' verbs receive: the kernel's context with Mento's exchange port, which settlement prices with too. */
export interface SwapServices extends ServiceContext {
  providers: { pricing: { exchange: ExchangeProvider } };
}
