// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev What the receiver needs from the token it pays out (SandboxToken, once it is a minter).
interface IMintableToken {
    function mint(address to, uint256 amount) external;
}

/// @title SandboxRelayReceiver
/// @notice The destination half of the sandbox aggregator. SandboxRouter burns the input on the
/// intermediate chain and emits RouteRequested; the sandbox relayer (the owner) then calls `fulfil`
/// here, which mints the output token to the route's recipient, as a bridge's filler would pay it.
/// A route is fulfilled once: a relayer that retries can never pay twice.
contract SandboxRelayReceiver {
    /// @notice The token every route is paid in (USDm on the destination chain).
    address public immutable token;
    address public owner;

    /// @notice Routes already paid, by the route id RouteRequested named.
    mapping(bytes32 => bool) public fulfilled;

    event RouteFulfilled(bytes32 indexed routeId, address indexed recipient, uint256 amountOut);
    /// @notice A route paid in another token than asked, as LI.FI's PARTIAL (another token delivered).
    event RouteFulfilledWith(
        bytes32 indexed routeId, address indexed tokenOut, address indexed recipient, uint256 amountOut
    );
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(address token_) {
        require(token_ != address(0), "SandboxRelayReceiver: token must be nonzero");
        token = token_;
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "SandboxRelayReceiver: caller is not the owner");
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "SandboxRelayReceiver: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function fulfil(bytes32 routeId, address recipient, uint256 amountOut) external onlyOwner {
        _pay(routeId, token, recipient, amountOut);
        emit RouteFulfilled(routeId, recipient, amountOut);
    }

    /// @notice Pays a route in `tokenOut` instead (the receiver must be one of its minters).
    function fulfilWith(bytes32 routeId, address tokenOut, address recipient, uint256 amountOut) external onlyOwner {
        _pay(routeId, tokenOut, recipient, amountOut);
        emit RouteFulfilledWith(routeId, tokenOut, recipient, amountOut);
    }

    function _pay(bytes32 routeId, address tokenOut, address recipient, uint256 amountOut) private {
        require(!fulfilled[routeId], "SandboxRelayReceiver: route already fulfilled");
        require(recipient != address(0), "SandboxRelayReceiver: recipient must be nonzero");
        require(amountOut > 0, "SandboxRelayReceiver: amount must be nonzero");
        fulfilled[routeId] = true;
        IMintableToken(tokenOut).mint(recipient, amountOut);
    }
}
