// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev The two calls the router makes of Mento's Broker.
interface IMentoBrokerSwaps {
    function getAmountOut(
        address exchangeProvider,
        bytes32 exchangeId,
        address tokenIn,
        address tokenOut,
        uint256 amountIn
    ) external view returns (uint256);

    function swapIn(
        address exchangeProvider,
        bytes32 exchangeId,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOutMin
    ) external returns (uint256);
}

/// @dev Only for encoding the token calls: the answers are read by hand (see _callToken).
interface IERC20Calls {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function transfer(address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
}

/// @title SandboxMentoRouter
/// @notice Stands in for mento-protocol/mento-router's MentoRouter on the sandbox destination chain:
/// one transaction swaps an exact input along a path of broker exchanges (USDC -> USDm -> COPm) and
/// pays the output to the caller. The selectors, the Step tuple, the return values and the revert
/// reasons a wallet or the service can meet are the real router's, so a client written against this
/// one works against Celo's unchanged; the router emits no event of its own (the real one emits none),
/// so the broker's Swap events and the tokens' Transfer events are the whole record of a swap.
/// @dev Differences from the deployed MentoRouter, all documented in dev/chains/README.md:
/// - a step whose assetIn is not the previous step's assetOut is refused up front; the real router
///   only fails later, when the broker cannot pull a token the router does not hold;
/// - swapTokensForExactTokens, getAmountIn and drain are absent (the sandbox broker has no getAmountIn).
/// Like the real router it holds nothing between calls: each hop's input is approved to the broker
/// exactly, the broker pulls all of it, and the last hop's output leaves in the same transaction.
contract SandboxMentoRouter {
    /// @notice IMentoRouter.Step: one broker swap, with the same four arguments Broker.swapIn takes.
    struct Step {
        address exchangeProvider;
        bytes32 exchangeId;
        address assetIn;
        address assetOut;
    }

    /// @dev Not public: the real router keeps its broker internal, so the ABI has no getter for it.
    IMentoBrokerSwaps private immutable broker;

    constructor(address broker_) {
        require(broker_ != address(0), "SandboxMentoRouter: broker must be nonzero");
        broker = IMentoBrokerSwaps(broker_);
    }

    /// @notice Swaps exactly `amountIn` of path[0].assetIn for the last step's assetOut, paid to the caller.
    /// @return amounts amountIn then every step's output: amounts[i + 1] is what step i paid, so
    /// the last entry is what the caller received (the real router's layout, path.length + 1 long).
    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Step[] calldata path)
        external
        returns (uint256[] memory amounts)
    {
        // Quote the whole path first, as the real router does, so a short output is refused before
        // a token moves and the caller's allowance stays untouched.
        amounts = _amountsOut(amountIn, path);
        uint256 last = path.length;
        require(amounts[last] >= amountOutMin, "MentoRouter: INSUFFICIENT_OUTPUT_AMOUNT");

        _callToken(
            path[0].assetIn,
            abi.encodeCall(IERC20Calls.transferFrom, (msg.sender, address(this), amountIn)),
            "TransferHelper::transferFrom: transferFrom failed"
        );
        for (uint256 i = 0; i < last; i++) {
            Step calldata step = path[i];
            // Exactly this hop's input, so no allowance outlives the transaction.
            _callToken(
                step.assetIn,
                abi.encodeCall(IERC20Calls.approve, (address(broker), amounts[i])),
                "TransferHelper::safeApprove: approve failed"
            );
            // Through Broker.swapIn rather than the exchange provider: the broker applies its trading
            // limits to every hop, and its reasons ("L0 Exceeded", ...) reach the caller unchanged.
            // The hop's quote is its minimum, as on the real router: quote and swap share a block.
            amounts[i + 1] = broker.swapIn(
                step.exchangeProvider, step.exchangeId, step.assetIn, step.assetOut, amounts[i], amounts[i + 1]
            );
        }
        // Holds by construction (each hop paid at least its quote); kept so no edit can break it silently.
        require(amounts[last] >= amountOutMin, "MentoRouter: INSUFFICIENT_OUTPUT_AMOUNT");

        _callToken(
            path[last - 1].assetOut,
            abi.encodeCall(IERC20Calls.transfer, (msg.sender, amounts[last])),
            "TransferHelper::safeTransfer: transfer failed"
        );
    }

    /// @notice What swapExactTokensForTokens would pay for `amountIn` along `path` now: the broker's
    /// getAmountOut hop by hop. Trading limits are not applied here, as on the broker's own quote.
    function getAmountOut(uint256 amountIn, Step[] calldata path) external view returns (uint256 amountOut) {
        uint256[] memory amounts = _amountsOut(amountIn, path);
        return amounts[path.length];
    }

    /// @dev Checks the path and quotes it: amounts[0] = amountIn, amounts[i + 1] = step i's output.
    function _amountsOut(uint256 amountIn, Step[] calldata path) private view returns (uint256[] memory amounts) {
        // As the deployed router: a one-step trade goes to the broker itself.
        require(path.length >= 2, "MentoRouter: INVALID_PATH");
        amounts = new uint256[](path.length + 1);
        amounts[0] = amountIn;
        for (uint256 i = 0; i < path.length; i++) {
            // A broken chain would make the router spend a token it never received.
            require(
                i == 0 || path[i].assetIn == path[i - 1].assetOut,
                "SandboxMentoRouter: step assetIn is not the previous step's assetOut"
            );
            amounts[i + 1] = broker.getAmountOut(
                path[i].exchangeProvider, path[i].exchangeId, path[i].assetIn, path[i].assetOut, amounts[i]
            );
        }
    }

    /// @dev A low-level call, so a token that returns nothing (USDT on some chains) is accepted, and
    /// one that returns false is refused. The real router's TransferHelper does the same and reverts
    /// with its own message, not the token's, so the sandbox does too.
    function _callToken(address token, bytes memory data, string memory failure) private {
        require(token.code.length > 0, failure);
        (bool ok, bytes memory returned) = token.call(data);
        require(
            ok && (returned.length == 0 || (returned.length >= 32 && abi.decode(returned, (uint256)) == 1)), failure
        );
    }
}
