import { parseAbi } from "viem";

/**
 * The real protocols' signatures (docs/domain-facts.md), as the service reads and writes them.
 * The sandbox contracts are built to these; the live adapters use them against the real deployments.
 */
export const erc20Abi = parseAbi([
  "function balanceOf(address owner) view returns (uint256)",
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
  "function totalSupply() view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function transferFrom(address from, address to, uint256 amount) returns (bool)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
]);

/** Only the sandbox tokens have this: the operator mints test money with it. */
export const sandboxMintAbi = parseAbi(["function mint(address to, uint256 amount)"]);

export const tokenMessengerV2Abi = parseAbi([
  "function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold)",
  "function depositForBurnWithHook(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold, bytes hookData)",
  "event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)",
  // Emitted on the minting chain by BaseTokenMessenger._mintAndWithdraw: `amount` is what the
  // recipient received, the fee already taken (circlefin/evm-cctp-contracts src/v2).
  "event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)",
  // BaseTokenMessenger's registry of the TokenMessenger it accepts burn messages from, per domain.
  "function remoteTokenMessengers(uint32 domain) view returns (bytes32)",
]);

/**
 * Circle's MessageTransmitterV2 receive side (circlefin/evm-cctp-contracts src/v2): anyone relays an
 * attested message whose destinationCaller is zero; each nonce is received once (`usedNonces` 1), and
 * MessageReceived names the nonce, the link from a burn (Iris's eventNonce) to its mint.
 */
export const messageTransmitterV2Abi = parseAbi([
  "function receiveMessage(bytes message, bytes attestation) returns (bool)",
  "function usedNonces(bytes32 nonce) view returns (uint256)",
  "event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)",
]);

export const mentoBrokerAbi = parseAbi([
  "function getAmountOut(address exchangeProvider, bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256)",
  "function swapIn(address exchangeProvider, bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOutMin) returns (uint256)",
  "function tradingLimitsConfig(bytes32 limitId) view returns (uint32 timestep0, uint32 timestep1, int48 limit0, int48 limit1, int48 limitGlobal, uint8 flags)",
  "function tradingLimitsState(bytes32 limitId) view returns (uint32 lastUpdated0, uint32 lastUpdated1, int48 netflow0, int48 netflow1, int48 netflowGlobal)",
  "event Swap(address exchangeProvider, bytes32 indexed exchangeId, address indexed trader, address indexed tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut)",
]);

/**
 * The payout deposit contract (dev/chains/contracts/PayoutDepositor.sol): the user's one transaction
 * pays `amount` to the provider's deposit address and `fee` to the fee wallet, both with
 * transferFrom from the caller (approve amount + fee first), and emits PayoutDeposited.
 */
export const payoutDepositorAbi = parseAbi([
  "function deposit(bytes32 payoutRef, address token, uint256 amount, uint256 fee, address depositAddress, address feeWallet)",
  "function depositWithPartnerFee(bytes32 payoutRef, address token, uint256 amount, uint256 fee, address depositAddress, address feeWallet, uint256 partnerFee, address partnerFeeWallet)",
  "event PayoutDeposited(bytes32 indexed payoutRef, address indexed payer, address indexed token, uint256 amount, uint256 fee, address depositAddress, address feeWallet)",
  "event PartnerFeePaid(bytes32 indexed payoutRef, address indexed partnerFeeWallet, address indexed token, uint256 partnerFee)",
]);

/**
 * Mento's router (mento-protocol/mento-router src/IMentoRouter.sol; the sandbox's
 * dev/chains/contracts/SandboxMentoRouter.sol): swaps exactly `amountIn` of path[0].assetIn along
 * broker steps, each `Broker.swapIn(exchangeProvider, exchangeId, assetIn, assetOut, …)`, and pays the
 * last step's output to the caller (approve the router for `amountIn` first). `amounts` is amountIn
 * then each step's output, so its last entry is what the caller received. `getAmountOut` quotes the
 * same path with the Broker's getAmountOut. Neither emits an event of the router's own. The deployed
 * router needs at least two steps ("MentoRouter: INVALID_PATH").
 */
export const mentoRouterAbi = parseAbi([
  "struct Step { address exchangeProvider; bytes32 exchangeId; address assetIn; address assetOut; }",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Step[] path) returns (uint256[] amounts)",
  "function getAmountOut(uint256 amountIn, Step[] path) view returns (uint256 amountOut)",
]);

/** CCTP finality thresholds: Fast transfers are attested at "confirmed", Standard at "finalized". */
export const FINALITY_FAST = 1000;
export const FINALITY_STANDARD = 2000;

/**
 * Chainalysis's sanctions oracle (SanctionsList): `isSanctioned` is what screening reads; the list
 * is changed by its owner (Chainalysis, or the sandbox operator for the stand-in).
 */
export const sanctionsListAbi = parseAbi([
  "function isSanctioned(address addr) view returns (bool)",
  "function name() pure returns (string)",
  "function addToSanctionsList(address[] newSanctions)",
  "function removeFromSanctionsList(address[] removeSanctions)",
]);

/**
 * Where Chainalysis deploys the oracle on Ethereum, Arbitrum One, Avalanche, OP Mainnet, Polygon,
 * BNB Chain, Fantom and Celo (Base has its own address: the mainnet profile names each chain's).
 */
export const CHAINALYSIS_SANCTIONS_ORACLE = "0x40C57923924B5c5c5455c48D93317139ADDaC8fb";
