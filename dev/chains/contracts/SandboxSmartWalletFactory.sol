// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SandboxSmartWallet} from "./SandboxSmartWallet.sol";

/// @title SandboxSmartWalletFactory
/// @notice Deploys SandboxSmartWallets at addresses known before they exist (CREATE2), as wallet
/// factories do: what ERC-6492 signatures of a not-yet-deployed wallet name.
contract SandboxSmartWalletFactory {
    event WalletDeployed(address indexed wallet, address indexed owner, bytes32 salt);

    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = address(new SandboxSmartWallet{salt: salt}(owner));
        emit WalletDeployed(wallet, owner, salt);
    }

    function addressOf(address owner, bytes32 salt) external view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(SandboxSmartWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, codeHash)))));
    }
}
