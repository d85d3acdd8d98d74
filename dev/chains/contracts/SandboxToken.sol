// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SandboxToken
/// @notice A plain ERC-20 for the local sandbox chains. Test money is created by the sandbox operator
/// (the owner) or by contracts it authorised (the Mento-like broker mints what a swap pays out), and
/// destroyed by its holder (the CCTP-like messenger, the router and the broker burn what they pulled in).
contract SandboxToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    address public owner;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public isMinter;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event MinterSet(address indexed minter, bool allowed);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "SandboxToken: caller is not the owner");
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "SandboxToken: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setMinter(address minter, bool allowed) external onlyOwner {
        isMinter[minter] = allowed;
        emit MinterSet(minter, allowed);
    }

    /// @notice Returns true, as Mento's StableTokenV2 does: Mento's broker decodes the answer.
    function mint(address to, uint256 amount) external returns (bool) {
        require(msg.sender == owner || isMinter[msg.sender], "SandboxToken: caller is not a minter");
        require(to != address(0), "SandboxToken: mint to the zero address");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
        return true;
    }

    /// @notice Burns the caller's own tokens; nobody can burn someone else's balance. Returns true,
    /// as Mento's StableTokenV2 does.
    function burn(uint256 amount) external returns (bool) {
        uint256 balance = balanceOf[msg.sender];
        require(balance >= amount, "SandboxToken: burn amount exceeds balance");
        unchecked {
            balanceOf[msg.sender] = balance - amount;
            totalSupply -= amount;
        }
        emit Transfer(msg.sender, address(0), amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        // An unlimited approval stays unlimited, as in most production tokens (USDC included).
        if (allowed != type(uint256).max) {
            require(allowed >= amount, "SandboxToken: insufficient allowance");
            unchecked {
                allowance[from][msg.sender] = allowed - amount;
            }
        }
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        require(to != address(0), "SandboxToken: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= amount, "SandboxToken: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = balance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
