// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SandboxTradingLimits} from "./SandboxTradingLimits.sol";

/// @dev The exchange-provider side the broker calls (SandboxExchangeProvider, like Mento's BiPoolManager).
interface IExchangeProvider {
    function getAmountOut(bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn)
        external
        view
        returns (uint256);
    function swapIn(bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn)
        external
        returns (uint256);
}

/// @dev The sandbox tokens: the broker burns what it takes in and mints what it pays out.
interface IMintableBurnableToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function burn(uint256 amount) external;
    function mint(address to, uint256 amount) external;
    function decimals() external view returns (uint8);
}

/// @title SandboxBroker
/// @notice Mento's Broker for the sandbox destination chain: same swap and quote signatures, same Swap
/// event, same trading-limit views (tradingLimitsConfig / tradingLimitsState keyed by
/// exchangeId XOR token) and the same revert reasons. Unlike Mento there is no reserve: every token
/// taken in is burned and every token paid out is minted, so the broker must be a minter of each.
contract SandboxBroker {
    using SandboxTradingLimits for SandboxTradingLimits.State;
    using SandboxTradingLimits for SandboxTradingLimits.Config;

    address public owner;
    address[] public exchangeProviders;
    mapping(address => bool) public isExchangeProvider;
    mapping(bytes32 => SandboxTradingLimits.State) public tradingLimitsState;
    mapping(bytes32 => SandboxTradingLimits.Config) public tradingLimitsConfig;
    bool private swapping;

    event Swap(
        address exchangeProvider,
        bytes32 indexed exchangeId,
        address indexed trader,
        address indexed tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut
    );
    event ExchangeProviderAdded(address indexed exchangeProvider);
    event ExchangeProviderRemoved(address indexed exchangeProvider);
    event TradingLimitConfigured(bytes32 exchangeId, address token, SandboxTradingLimits.Config config);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    modifier nonReentrant() {
        require(!swapping, "ReentrancyGuard: reentrant call");
        swapping = true;
        _;
        swapping = false;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function addExchangeProvider(address exchangeProvider) external onlyOwner returns (uint256 index) {
        require(!isExchangeProvider[exchangeProvider], "ExchangeProvider already exists in the list");
        require(exchangeProvider != address(0), "ExchangeProvider address can't be 0");
        exchangeProviders.push(exchangeProvider);
        isExchangeProvider[exchangeProvider] = true;
        emit ExchangeProviderAdded(exchangeProvider);
        index = exchangeProviders.length - 1;
    }

    function removeExchangeProvider(address exchangeProvider, uint256 index) external onlyOwner {
        require(exchangeProviders[index] == exchangeProvider, "index doesn't match provider");
        exchangeProviders[index] = exchangeProviders[exchangeProviders.length - 1];
        exchangeProviders.pop();
        delete isExchangeProvider[exchangeProvider];
        emit ExchangeProviderRemoved(exchangeProvider);
    }

    function getExchangeProviders() external view returns (address[] memory) {
        return exchangeProviders;
    }

    /// @notice The key of a token's limit within an exchange, as Mento computes it.
    function tradingLimitId(bytes32 exchangeId, address token) public pure returns (bytes32) {
        return exchangeId ^ bytes32(uint256(uint160(token)));
    }

    function configureTradingLimit(bytes32 exchangeId, address token, SandboxTradingLimits.Config calldata config)
        external
        onlyOwner
    {
        config.validate();
        bytes32 limitId = tradingLimitId(exchangeId, token);
        tradingLimitsConfig[limitId] = config;
        tradingLimitsState[limitId] = tradingLimitsState[limitId].afterReconfiguration(config);
        emit TradingLimitConfigured(exchangeId, token, config);
    }

    function getAmountOut(
        address exchangeProvider,
        bytes32 exchangeId,
        address tokenIn,
        address tokenOut,
        uint256 amountIn
    ) external view returns (uint256) {
        require(isExchangeProvider[exchangeProvider], "ExchangeProvider does not exist");
        return IExchangeProvider(exchangeProvider).getAmountOut(exchangeId, tokenIn, tokenOut, amountIn);
    }

    function swapIn(
        address exchangeProvider,
        bytes32 exchangeId,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOutMin
    ) external nonReentrant returns (uint256 amountOut) {
        require(isExchangeProvider[exchangeProvider], "ExchangeProvider does not exist");
        amountOut = IExchangeProvider(exchangeProvider).swapIn(exchangeId, tokenIn, tokenOut, amountIn);
        require(amountOut >= amountOutMin, "amountOutMin not met");
        require(amountIn <= uint256(type(int256).max), "amountIn too large");
        require(amountOut <= uint256(type(int256).max), "amountOut too large");
        _guardTradingLimit(tradingLimitId(exchangeId, tokenIn), int256(amountIn), tokenIn);
        _guardTradingLimit(tradingLimitId(exchangeId, tokenOut), -int256(amountOut), tokenOut);

        require(IMintableBurnableToken(tokenIn).transferFrom(msg.sender, address(this), amountIn), "Transfer failed");
        IMintableBurnableToken(tokenIn).burn(amountIn);
        IMintableBurnableToken(tokenOut).mint(msg.sender, amountOut);
        emit Swap(exchangeProvider, exchangeId, msg.sender, tokenIn, tokenOut, amountIn, amountOut);
    }

    /// @dev A token without a configured limit (flags = 0) trades freely, as on Mento.
    function _guardTradingLimit(bytes32 limitId, int256 flow, address token) private {
        SandboxTradingLimits.Config memory config = tradingLimitsConfig[limitId];
        if (config.flags == 0) return;
        SandboxTradingLimits.State memory state =
            tradingLimitsState[limitId].record(config, flow, IMintableBurnableToken(token).decimals());
        state.enforce(config);
        tradingLimitsState[limitId] = state;
    }
}
