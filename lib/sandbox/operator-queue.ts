/**
 * One sandbox-operator transaction at a time per chain: an automining chain refuses a nonce ahead of
 * the next one, and concurrent calls reach it in any order. Everything that signs as the operator
 * (the faucet, the sandbox forwarder and relayer) goes through this one queue. (Within one process
 * or isolate; the sandbox runs in one.)
 */
const operatorQueues = new Map<string, Promise<unknown>>();

export function oneOperatorTransactionAtATime<T>(rpcUrl: string, work: () => Promise<T>): Promise<T> {
  const previous = operatorQueues.get(rpcUrl) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(work);
  operatorQueues.set(rpcUrl, next);
  return next;
}
