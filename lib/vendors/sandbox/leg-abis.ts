import { parseAbi } from "viem";

/**
 * The sandbox's own stand-ins for what Circle and the aggregator do off-chain (dev/chains/contracts):
 * the messenger's forwarded mint, the router's request and the relay receiver's payment. The live
 * adapters never use these; tests/vendors check them against what solc compiled.
 */
export const sandboxForwarderAbi = parseAbi([
  "function forwarded(bytes32 sourceBurnTxHash) view returns (bool)",
  "function forwardMint(bytes32 sourceBurnTxHash, address mintRecipient, uint256 amount, uint256 feeCollected)",
  "event MintForwarded(bytes32 indexed sourceBurnTxHash, address indexed mintRecipient)",
]);

export const sandboxRouteRequestAbi = parseAbi([
  "function route(address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address recipient, uint256 minAmountOut) returns (bytes32 routeId)",
  "event RouteRequested(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address indexed recipient, uint256 minAmountOut)",
]);

export const sandboxRelayReceiverAbi = parseAbi([
  "function fulfilled(bytes32 routeId) view returns (bool)",
  "function fulfil(bytes32 routeId, address recipient, uint256 amountOut)",
  "event RouteFulfilled(bytes32 indexed routeId, address indexed recipient, uint256 amountOut)",
]);
