import type { Language } from "../../../lib/kernel/errors/error-body";
import type { Service } from "./service";
import type { State } from "./state";
import type { Steps } from "./steps";
import type { ClientText, Say } from "./text";
import type { Wallet } from "./wallet";

/** What every step of the miniapp works with: the page's words, the flow's state, the wallet and the service. */
export interface Miniapp extends Service {
  lang: Language;
  text: ClientText;
  say: Say;
  state: State;
  steps: Steps;
  wallet: Wallet;
}
