// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/**
 * A stand-in for Chainalysis's sanctions oracle (the "SanctionsList" contract Chainalysis deploys at
 * 0x40C57923924B5c5c5455c48D93317139ADDaC8fb on Ethereum, Arbitrum, Avalanche, OP, Polygon and Celo,
 * and at 0x3A91A31cB3dC49b4db9Ce721F50a9D076c8D739B on Base): the same functions, events, name and
 * storage shape (OpenZeppelin v4's Ownable owner in slot 0, the list in slot 1), so the sandbox puts
 * its code at the oracle's own address and the service reads it as it reads the real one. Sources:
 * docs/domain-facts.md, "Sanctions screening".
 */
contract SandboxSanctionsList {
    address private _owner;
    mapping(address => bool) private sanctionedAddresses;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event SanctionedAddress(address indexed addr);
    event NonSanctionedAddress(address indexed addr);
    event SanctionedAddressesAdded(address[] addrs);
    event SanctionedAddressesRemoved(address[] addrs);

    constructor() {
        _owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == _owner, "Ownable: caller is not the owner");
        _;
    }

    function owner() external view returns (address) {
        return _owner;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(_owner, newOwner);
        _owner = newOwner;
    }

    function name() external pure returns (string memory) {
        return "Chainalysis sanctions oracle";
    }

    function addToSanctionsList(address[] memory newSanctions) public onlyOwner {
        for (uint256 i = 0; i < newSanctions.length; i++) sanctionedAddresses[newSanctions[i]] = true;
        emit SanctionedAddressesAdded(newSanctions);
    }

    function removeFromSanctionsList(address[] memory removeSanctions) public onlyOwner {
        for (uint256 i = 0; i < removeSanctions.length; i++) sanctionedAddresses[removeSanctions[i]] = false;
        emit SanctionedAddressesRemoved(removeSanctions);
    }

    function isSanctioned(address addr) public view returns (bool) {
        return sanctionedAddresses[addr] == true;
    }

    function isSanctionedVerbose(address addr) public returns (bool) {
        if (isSanctioned(addr)) {
            emit SanctionedAddress(addr);
            return true;
        }
        emit NonSanctionedAddress(addr);
        return false;
    }
}
