// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev Only for encoding the call: the token's answer is read by hand (see _safeTransferFrom).
interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title PayoutDepositor
/// @notice A user's one deposit transaction for a peso payout: it pays the payout provider's deposit
/// address and the service's fee wallet from the user's own wallet, and emits PayoutDeposited, so a
/// single receipt proves both legs and which payout they were for. Both transfers happen in the same
/// call or neither does: the provider is never paid without the fee, nor the fee taken without the payout.
/// @dev No owner, no state and no balance: it only moves tokens the caller approved it for, from the
/// caller, so there is nothing here to administer, upgrade or drain.
contract PayoutDepositor {
    /// @notice One payout's deposit. `payer` is always msg.sender, the wallet whose tokens moved,
    /// so a watcher can match a payout to its user without trusting any argument.
    event PayoutDeposited(
        bytes32 indexed payoutRef,
        address indexed payer,
        address indexed token,
        uint256 amount,
        uint256 fee,
        address depositAddress,
        address feeWallet
    );

    /// @notice The partner's own fee on a payout, paid in the same call as the deposit and the
    /// service's fee (depositWithPartnerFee): one receipt proves all three.
    event PartnerFeePaid(
        bytes32 indexed payoutRef,
        address indexed partnerFeeWallet,
        address indexed token,
        uint256 partnerFee
    );

    function deposit(
        bytes32 payoutRef,
        address token,
        uint256 amount,
        uint256 fee,
        address depositAddress,
        address feeWallet
    ) public {
        require(amount > 0, "PayoutDepositor: amount must be nonzero");
        require(token != address(0), "PayoutDepositor: token must be nonzero");
        require(depositAddress != address(0), "PayoutDepositor: deposit address must be nonzero");
        // Checked even when the fee is 0: a zero fee wallet means the caller built the call wrong.
        require(feeWallet != address(0), "PayoutDepositor: fee wallet must be nonzero");
        // A call to an address without code succeeds and returns nothing, which the no-return rule
        // below would take for a transfer that happened.
        require(token.code.length > 0, "PayoutDepositor: token is not a contract");

        _safeTransferFrom(token, msg.sender, depositAddress, amount);
        // A zero-value transfer would prove nothing, and some tokens refuse it.
        if (fee > 0) _safeTransferFrom(token, msg.sender, feeWallet, fee);

        emit PayoutDeposited(payoutRef, msg.sender, token, amount, fee, depositAddress, feeWallet);
    }

    /// @notice `deposit`, and the organization's own fee to its fee address, in the one call: all
    /// three transfers happen or none does.
    function depositWithPartnerFee(
        bytes32 payoutRef,
        address token,
        uint256 amount,
        uint256 fee,
        address depositAddress,
        address feeWallet,
        uint256 partnerFee,
        address partnerFeeWallet
    ) external {
        require(partnerFee > 0, "PayoutDepositor: partner fee must be nonzero");
        require(partnerFeeWallet != address(0), "PayoutDepositor: partner fee wallet must be nonzero");
        deposit(payoutRef, token, amount, fee, depositAddress, feeWallet);
        _safeTransferFrom(token, msg.sender, partnerFeeWallet, partnerFee);
        emit PartnerFeePaid(payoutRef, partnerFeeWallet, token, partnerFee);
    }

    /// @dev A low-level call instead of the ERC-20 interface, because tokens like USDT on Ethereum
    /// return nothing from transferFrom and a typed call would revert decoding their empty answer.
    /// A token that returns `false` instead of reverting did not move anything, so that reverts too.
    function _safeTransferFrom(address token, address from, address to, uint256 value) private {
        (bool ok, bytes memory returned) =
            token.call(abi.encodeCall(IERC20TransferFrom.transferFrom, (from, to, value)));
        if (!ok) {
            // The token's own reason ("insufficient allowance", "exceeds balance") tells the user
            // what to fix; pass it on when there is one.
            if (returned.length > 0) {
                assembly ("memory-safe") {
                    revert(add(returned, 32), mload(returned))
                }
            }
            revert("PayoutDepositor: transfer failed");
        }
        // Read as a word, not a bool: a bool decode would revert without a reason on a malformed answer.
        require(
            returned.length == 0 || (returned.length >= 32 && abi.decode(returned, (uint256)) == 1),
            "PayoutDepositor: transfer failed"
        );
    }
}
