import { type LocalAggregator, type LocalAggregatorOptions, startLocalAggregator } from "./aggregator";
import {
  LOCAL_AGGREGATOR_KEY,
  LOCAL_CIRCLE_ATTESTER_KEY,
  LOCAL_CIRCLE_FORWARDER_KEY,
  type SandboxChain,
  type SandboxNetwork,
} from "./chains";
import { type LocalCircle, type LocalCircleOptions, startLocalCircle } from "./circle";

export interface LocalVendorsOptions {
  now?: () => Date;
  /** Settings of the local Circle beyond the chains and keys (delays, test amounts, rate limit, port). */
  circle?: Partial<Omit<LocalCircleOptions, "chains" | "attesterKey" | "forwarderKey" | "now">>;
  /** Settings of the local aggregator beyond the chains and keys. */
  aggregator?: Partial<Omit<LocalAggregatorOptions, "chains" | "relayerKey" | "marketKey" | "now">>;
}

export interface LocalVendors {
  circle: LocalCircle;
  aggregator: LocalAggregator;
  /** What points the worker at them: its production adapters' base URLs. */
  workerVars: { IRIS_URL: string; LIFI_URL: string };
  close(): Promise<void>;
}

/**
 * Circle (dev/circle) and the aggregator (dev/aggregator) for a local network: the vendors the
 * worker reaches over HTTP with its production adapters, as it reaches Circle's Iris and LI.FI.
 */
export async function startLocalVendors(
  network: SandboxNetwork,
  options: LocalVendorsOptions = {},
): Promise<LocalVendors> {
  const chain = (role: SandboxChain["role"]) => {
    const found = network.chains.find((candidate) => candidate.role === role);
    if (!found) throw new Error(`the local network has no ${role} chain`);
    return found;
  };
  const [intermediate, destination] = [chain("intermediate"), chain("destination")];
  const sources = network.chains.filter((candidate) => candidate.role === "source");
  const cctp = [...sources, intermediate].map((end) => {
    const { tokenMessenger, messageTransmitter } = end.contracts;
    if (end.cctpDomain === undefined || !tokenMessenger || !messageTransmitter) {
      throw new Error(`the ${end.role} chain lacks CCTP`);
    }
    return {
      chainId: end.chainId,
      name: end.name,
      rpcUrl: end.rpcUrl,
      cctpDomain: end.cctpDomain,
      tokenMessenger,
      messageTransmitter,
    };
  });
  const now = options.now;
  const circle = await startLocalCircle({
    chains: cctp,
    attesterKey: LOCAL_CIRCLE_ATTESTER_KEY,
    forwarderKey: LOCAL_CIRCLE_FORWARDER_KEY,
    ...(intermediate.cctpDomain === undefined ? {} : { settlementDomain: intermediate.cctpDomain }),
    ...(now ? { now } : {}),
    ...options.circle,
  });
  try {
    const aggregator = await startLocalAggregator({
      chains: { sources, intermediate, destination },
      relayerKey: LOCAL_AGGREGATOR_KEY,
      marketKey: network.operator.privateKey,
      ...(now ? { now } : {}),
      ...options.aggregator,
    });
    return {
      circle,
      aggregator,
      workerVars: { IRIS_URL: circle.url, LIFI_URL: aggregator.url },
      close: async () => {
        await aggregator.close();
        await circle.close();
      },
    };
  } catch (error) {
    await circle.close();
    throw error;
  }
}
