// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev What the router needs from the token it burns, and mints back on a refund (SandboxToken, once
/// the router is one of its minters).
interface IBurnableToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function burn(uint256 amount) external;
    function mint(address to, uint256 amount) external;
}

/// @title SandboxRouter
/// @notice Stands in for the route aggregator's contract on the intermediate chain. It takes the
/// input token (pull, then burn) and records the request with the sender's `memo` (a settlement
/// names its order's commitment there); the sandbox relayer reads RouteRequested and pays the output
/// on the destination chain, or, as a bridge that gives up, refunds the input here once (`refund`,
/// the owner's: the local aggregator's relayer, dev/aggregator).
contract SandboxRouter {
    /// @notice How many routes were requested so far; it makes every route id unique.
    uint256 public routeCount;
    address public owner;

    struct Request {
        address sender;
        address tokenIn;
        uint256 amountIn;
    }

    mapping(bytes32 => Request) public requests;
    /// @notice Routes whose input went back to their sender.
    mapping(bytes32 => bool) public refunded;

    event RouteRefunded(bytes32 indexed routeId, address indexed sender, address tokenIn, uint256 amount);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    /// @notice The aggregator's relayer takes the router over once the chain is deployed.
    function transferOwnership(address newOwner) external {
        require(msg.sender == owner, "SandboxRouter: caller is not the owner");
        require(newOwner != address(0), "SandboxRouter: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    event RouteRequested(
        bytes32 indexed routeId,
        address indexed sender,
        address tokenIn,
        uint256 amountIn,
        uint256 destinationChainId,
        address tokenOut,
        address indexed recipient,
        uint256 minAmountOut,
        bytes32 memo
    );

    function route(
        address tokenIn,
        uint256 amountIn,
        uint256 destinationChainId,
        address tokenOut,
        address recipient,
        uint256 minAmountOut,
        bytes32 memo
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
        requests[routeId] = Request(msg.sender, tokenIn, amountIn);

        require(IBurnableToken(tokenIn).transferFrom(msg.sender, address(this), amountIn), "SandboxRouter: transfer failed");
        IBurnableToken(tokenIn).burn(amountIn);

        emit RouteRequested(
            routeId, msg.sender, tokenIn, amountIn, destinationChainId, tokenOut, recipient, minAmountOut, memo
        );
    }

    /// @notice Gives a route's input back to its sender, once, as LI.FI's REFUNDED does.
    function refund(bytes32 routeId) external {
        refundPart(routeId, requests[routeId].amountIn);
    }

    /// @notice Gives back part of a route's input, once: a bridge that keeps its fee on a refund.
    function refundPart(bytes32 routeId, uint256 amount) public {
        require(msg.sender == owner, "SandboxRouter: caller is not the owner");
        Request memory request = requests[routeId];
        require(request.sender != address(0), "SandboxRouter: unknown route");
        require(!refunded[routeId], "SandboxRouter: route already refunded");
        require(amount > 0 && amount <= request.amountIn, "SandboxRouter: refund must be part of the input");
        refunded[routeId] = true;
        IBurnableToken(request.tokenIn).mint(request.sender, amount);
        emit RouteRefunded(routeId, request.sender, request.tokenIn, amount);
    }
}
