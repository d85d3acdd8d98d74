// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev What the router needs from the token it burns (SandboxToken has both).
interface IBurnableToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function burn(uint256 amount) external;
}

/// @title SandboxRouter
/// @notice Stands in for the route aggregator's contract on the intermediate chain. It takes the
/// input token for good (pull, then burn) and records the request; the sandbox relayer reads
/// RouteRequested and mints the output on the destination chain.
contract SandboxRouter {
    /// @notice How many routes were requested so far; it makes every route id unique.
    uint256 public routeCount;

    event RouteRequested(
        bytes32 indexed routeId,
        address indexed sender,
        address tokenIn,
        uint256 amountIn,
        uint256 destinationChainId,
        address tokenOut,
        address indexed recipient,
        uint256 minAmountOut
    );

    function route(
        address tokenIn,
        uint256 amountIn,
        uint256 destinationChainId,
        address tokenOut,
        address recipient,
        uint256 minAmountOut
    ) external returns (bytes32 routeId) {
        require(amountIn > 0, "SandboxRouter: amount must be nonzero");
        require(recipient != address(0), "SandboxRouter: recipient must be nonzero");
        require(tokenOut != address(0), "SandboxRouter: tokenOut must be nonzero");
        require(
            destinationChainId != 0 && destinationChainId != block.chainid,
            "SandboxRouter: destination must be another chain"
        );

        routeCount += 1;
        routeId = keccak256(abi.encode(block.chainid, address(this), routeCount));

        require(IBurnableToken(tokenIn).transferFrom(msg.sender, address(this), amountIn), "SandboxRouter: transfer failed");
        IBurnableToken(tokenIn).burn(amountIn);

        emit RouteRequested(routeId, msg.sender, tokenIn, amountIn, destinationChainId, tokenOut, recipient, minAmountOut);
    }
}
