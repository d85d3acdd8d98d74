import { parseAbi } from "viem";

/**
 * The local aggregator's contracts (dev/chains/contracts): the router's request and refund, and the
 * relay receiver's payment. Only the local aggregator uses them; the service sends whatever
 * transaction the aggregator's quote names. tests/dev checks them against what solc compiled.
 */
export const sandboxRouteRequestAbi = parseAbi([
  "function route(address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address recipient, uint256 minAmountOut, bytes32 memo) returns (bytes32 routeId)",
  "function refund(bytes32 routeId)",
  "function refunded(bytes32 routeId) view returns (bool)",
  "event RouteRequested(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address indexed recipient, uint256 minAmountOut, bytes32 memo)",
  "event RouteRefunded(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amount)",
]);

export const sandboxRelayReceiverAbi = parseAbi([
  "function fulfilled(bytes32 routeId) view returns (bool)",
  "function fulfil(bytes32 routeId, address recipient, uint256 amountOut)",
  "function fulfilWith(bytes32 routeId, address tokenOut, address recipient, uint256 amountOut)",
  "event RouteFulfilled(bytes32 indexed routeId, address indexed recipient, uint256 amountOut)",
  "event RouteFulfilledWith(bytes32 indexed routeId, address indexed tokenOut, address indexed recipient, uint256 amountOut)",
]);
