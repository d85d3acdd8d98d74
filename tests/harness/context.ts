import { serviceContext } from "../../lib/http/deps";
import { createLogger } from "../../lib/kernel/log";
import type { FaultInjector } from "../../lib/settlement/payments";
import type { Harness } from "./app";

/** The harness app's service context with a silent logger, for calling domain verbs directly. */
export function quietContext(h: Harness, faults?: FaultInjector) {
  return {
    ...serviceContext(
      h.deps,
      h.database.db,
      createLogger("error", {}, () => {}),
    ),
    ...(faults ? { faults } : {}),
  };
}
