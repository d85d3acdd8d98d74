// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SandboxSmartWallet
/// @notice A minimal smart-contract wallet for the local chains, as a person's account abstraction
/// wallet behaves where the service meets it: its owner key signs for it (ERC-1271
/// isValidSignature over the EIP-191 hash the owner signed), and it sends several calls in one
/// transaction (a batch), so the tests can prove wallet sign-in and batched deposits.
contract SandboxSmartWallet {
    struct Call {
        address target;
        bytes data;
    }

    /// @dev ERC-1271's answer for a valid signature: bytes4(keccak256("isValidSignature(bytes32,bytes)")).
    bytes4 private constant ERC1271_VALID = 0x1626ba7e;

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice The owner's batch: each call in order; any revert undoes them all, with its reason.
    function execute(Call[] calldata calls) external {
        require(msg.sender == owner, "SandboxSmartWallet: only the owner");
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory returned) = calls[i].target.call(calls[i].data);
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(returned, 32), mload(returned))
                }
            }
        }
    }

    /// @notice ERC-1271: valid when the owner signed `hash` (65 bytes r, s, v).
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? ERC1271_VALID : bytes4(0xffffffff);
    }
}
