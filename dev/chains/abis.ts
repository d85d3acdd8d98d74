import { parseAbi } from "viem";

/**
 * Typed ABIs of the sandbox contracts for viem, written out by hand so that viem infers argument and
 * result types. tests/dev/chains.chains.test.ts checks every entry against what solc compiled, and the
 * protocol-facing entries against the real signatures of docs/domain-facts.md.
 */
export const sandboxTokenAbi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function owner() view returns (address)",
  "function isMinter(address account) view returns (bool)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function transferFrom(address from, address to, uint256 amount) returns (bool)",
  "function mint(address to, uint256 amount) returns (bool)",
  "function burn(uint256 amount) returns (bool)",
  "function setMinter(address minter, bool allowed)",
  "function transferOwnership(address newOwner)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "event MinterSet(address indexed minter, bool allowed)",
]);

export const sandboxTokenMessengerV2Abi = parseAbi([
  "function localDomain() view returns (uint32)",
  "function owner() view returns (address)",
  "function remoteTokenMessengers(uint32 domain) view returns (bytes32)",
  "function burnLimitsPerMessage(address token) view returns (uint256)",
  "function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold)",
  "function depositForBurnWithHook(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold, bytes hookData)",
  "function addRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger)",
  "function removeRemoteTokenMessenger(uint32 domain)",
  "function setMaxBurnAmountPerMessage(address token, uint256 burnLimitPerMessage)",
  "function localMintToken() view returns (address)",
  "function feeRecipient() view returns (address)",
  "function setLocalMintToken(address token)",
  "function setLocalMessageTransmitter(address transmitter)",
  "function localMessageTransmitter() view returns (address)",
  "function setFeeRecipient(address newFeeRecipient)",
  "event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)",
  "event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)",
]);

/** The sandbox's oracle stand-in (SandboxSortedOracles.sol): what the operator reports with. */
export const sandboxSortedOraclesAbi = parseAbi([
  "function report(address rateFeedId, uint256 numerator, uint256 denominator)",
  "function setStale(address rateFeedId, bool stale)",
  "function setBreakerBox(address box)",
]);

/**
 * Mento's BiPoolManager: the calls the sandbox operator and the tests make. Mento's published ABI
 * (mento-artifacts.ts) has them all; tests/dev/chains.chains.test.ts holds these to it.
 */
export const biPoolManagerAbi = parseAbi([
  "struct Exchange { bytes32 exchangeId; address[] assets; }",
  "struct Fraction { uint256 value; }",
  "struct PoolConfig { Fraction spread; address referenceRateFeedID; uint256 referenceRateResetFrequency; uint256 minimumReports; uint256 stablePoolResetSize; }",
  "struct PoolExchange { address asset0; address asset1; address pricingModule; uint256 bucket0; uint256 bucket1; uint256 lastBucketUpdate; PoolConfig config; }",
  "function owner() view returns (address)",
  "function broker() view returns (address)",
  "function sortedOracles() view returns (address)",
  "function breakerBox() view returns (address)",
  "function getExchanges() view returns (Exchange[] exchanges)",
  "function getExchangeIds() view returns (bytes32[])",
  "function getPoolExchange(bytes32 exchangeId) view returns (PoolExchange exchange)",
  "function getAmountOut(bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256)",
  "function createExchange(PoolExchange exchange) returns (bytes32 exchangeId)",
  "function destroyExchange(bytes32 exchangeId, uint256 exchangeIdIndex) returns (bool destroyed)",
  "event ExchangeCreated(bytes32 indexed exchangeId, address indexed asset0, address indexed asset1, address pricingModule)",
]);

/** Mento's Broker: the calls the sandbox operator and the tests make (held to Mento's ABI likewise). */
export const mentoBrokerAdminAbi = parseAbi([
  "struct TradingLimitConfig { uint32 timestep0; uint32 timestep1; int48 limit0; int48 limit1; int48 limitGlobal; uint8 flags; }",
  "function owner() view returns (address)",
  "function getExchangeProviders() view returns (address[])",
  "function isExchangeProvider(address exchangeProvider) view returns (bool)",
  "function addExchangeProvider(address exchangeProvider) returns (uint256 index)",
  "function removeExchangeProvider(address exchangeProvider, uint256 index)",
  "function getAmountOut(address exchangeProvider, bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256)",
  "function swapIn(address exchangeProvider, bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOutMin) returns (uint256)",
  "function tradingLimitsConfig(bytes32 limitId) view returns (uint32 timestep0, uint32 timestep1, int48 limit0, int48 limit1, int48 limitGlobal, uint8 flags)",
  "function tradingLimitsState(bytes32 limitId) view returns (uint32 lastUpdated0, uint32 lastUpdated1, int48 netflow0, int48 netflow1, int48 netflowGlobal)",
  "function configureTradingLimit(bytes32 exchangeId, address token, TradingLimitConfig config)",
  "event Swap(address exchangeProvider, bytes32 indexed exchangeId, address indexed trader, address indexed tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut)",
  "event TradingLimitConfigured(bytes32 exchangeId, address token, TradingLimitConfig config)",
]);

export const sandboxRouterAbi = parseAbi([
  "function routeCount() view returns (uint256)",
  "function owner() view returns (address)",
  "function route(address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address recipient, uint256 minAmountOut, bytes32 memo) returns (bytes32 routeId)",
  "function refund(bytes32 routeId)",
  "function refundPart(bytes32 routeId, uint256 amount)",
  "function refunded(bytes32 routeId) view returns (bool)",
  "event RouteRequested(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amountIn, uint256 destinationChainId, address tokenOut, address indexed recipient, uint256 minAmountOut, bytes32 memo)",
  "event RouteRefunded(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amount)",
]);

export const sandboxRelayReceiverAbi = parseAbi([
  "function token() view returns (address)",
  "function owner() view returns (address)",
  "function fulfilled(bytes32 routeId) view returns (bool)",
  "function fulfil(bytes32 routeId, address recipient, uint256 amountOut)",
  "function fulfilWith(bytes32 routeId, address tokenOut, address recipient, uint256 amountOut)",
  "function transferOwnership(address newOwner)",
  "event RouteFulfilled(bytes32 indexed routeId, address indexed recipient, uint256 amountOut)",
  "event RouteFulfilledWith(bytes32 indexed routeId, address indexed tokenOut, address indexed recipient, uint256 amountOut)",
]);

/** Mento's BreakerBox and MedianDeltaBreaker: what governance's re-listing of a pool touches. */
export const mentoBreakerGovernanceAbi = parseAbi([
  "function getBreakers() view returns (address[])",
  "function isBreakerEnabled(address breaker, address rateFeedID) view returns (bool)",
  "function resetMedianRateEMA(address rateFeedID)",
]);
