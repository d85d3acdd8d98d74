// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev The token metadata the provider reads once, when an exchange is created.
interface ITokenMetadata {
    function symbol() external view returns (string memory);
    function decimals() external view returns (uint8);
}

/// @title SandboxExchangeProvider
/// @notice Plays Mento's BiPoolManager for the sandbox broker: it lists the exchanges and prices them
/// with a constant-sum rule at an owner-set rate less a spread. Mento's exchange-provider views and
/// revert reasons are kept so a client written against Mento works unchanged.
contract SandboxExchangeProvider {
    uint256 private constant WAD = 1e18;

    /// @notice Mento's IExchangeProvider.Exchange: what getExchanges() lists.
    struct Exchange {
        bytes32 exchangeId;
        address[] assets;
    }

    /// @notice One exchange. `rate` is how many whole asset1 one whole asset0 buys and `spread` the
    /// fraction kept from every swap, both 18-decimal fixed point (3_900e18 = 3,900; 0.0025e18 = 0.25%).
    struct Pool {
        address asset0;
        address asset1;
        uint8 decimals0;
        uint8 decimals1;
        uint256 rate;
        uint256 spread;
    }

    address public owner;
    /// @notice The only caller allowed to execute swaps.
    address public broker;
    bytes32[] public exchangeIds;
    mapping(bytes32 => Pool) public pools;

    event ExchangeCreated(bytes32 indexed exchangeId, address indexed asset0, address indexed asset1);
    event PricingSet(bytes32 indexed exchangeId, uint256 rate, uint256 spread);
    event BrokerUpdated(address indexed newBroker);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setBroker(address newBroker) external onlyOwner {
        require(newBroker != address(0), "Broker address must be set");
        broker = newBroker;
        emit BrokerUpdated(newBroker);
    }

    /// @notice The id is keccak256 of the two symbols (asset0's first), so a client can derive it offline.
    function exchangeIdFor(address asset0, address asset1) public view returns (bytes32) {
        return keccak256(abi.encodePacked(ITokenMetadata(asset0).symbol(), ITokenMetadata(asset1).symbol()));
    }

    function createExchange(address asset0, address asset1, uint256 rate, uint256 spread)
        external
        onlyOwner
        returns (bytes32 exchangeId)
    {
        require(asset0 != address(0) && asset1 != address(0) && asset0 != asset1, "asset0 and asset1 must differ");
        exchangeId = exchangeIdFor(asset0, asset1);
        require(pools[exchangeId].asset0 == address(0), "An exchange with the specified assets and exchange exists");
        uint8 decimals0 = ITokenMetadata(asset0).decimals();
        uint8 decimals1 = ITokenMetadata(asset1).decimals();
        require(decimals0 <= 18 && decimals1 <= 18, "decimals above 18 are not supported");
        pools[exchangeId] = Pool(asset0, asset1, decimals0, decimals1, 0, 0);
        exchangeIds.push(exchangeId);
        emit ExchangeCreated(exchangeId, asset0, asset1);
        setPricing(exchangeId, rate, spread);
    }

    function setPricing(bytes32 exchangeId, uint256 rate, uint256 spread) public onlyOwner {
        require(pools[exchangeId].asset0 != address(0), "An exchange with the specified id does not exist");
        require(rate > 0, "rate must be positive");
        require(spread < WAD, "Spread must be less than or equal to 1");
        pools[exchangeId].rate = rate;
        pools[exchangeId].spread = spread;
        emit PricingSet(exchangeId, rate, spread);
    }

    function getExchanges() external view returns (Exchange[] memory exchanges) {
        exchanges = new Exchange[](exchangeIds.length);
        for (uint256 i = 0; i < exchangeIds.length; i++) {
            Pool storage pool = pools[exchangeIds[i]];
            address[] memory assets = new address[](2);
            assets[0] = pool.asset0;
            assets[1] = pool.asset1;
            exchanges[i] = Exchange(exchangeIds[i], assets);
        }
    }

    function getAmountOut(bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn)
        public
        view
        returns (uint256)
    {
        Pool memory pool = pools[exchangeId];
        require(pool.asset0 != address(0), "An exchange with the specified id does not exist");
        bool forward = tokenIn == pool.asset0 && tokenOut == pool.asset1;
        require(forward || (tokenIn == pool.asset1 && tokenOut == pool.asset0), "tokenIn and tokenOut must match exchange");

        // Work in 18 decimals, price, take the spread, then round down to tokenOut's decimals.
        // Every step rounds down, so the trader never receives more than the rate allows.
        uint256 inWad = amountIn * 10 ** (18 - (forward ? pool.decimals0 : pool.decimals1));
        uint256 grossWad = forward ? (inWad * pool.rate) / WAD : (inWad * WAD) / pool.rate;
        uint256 netWad = (grossWad * (WAD - pool.spread)) / WAD;
        return netWad / 10 ** (18 - (forward ? pool.decimals1 : pool.decimals0));
    }

    /// @notice Called by the broker inside its swapIn; constant-sum pricing keeps no state to update.
    function swapIn(bytes32 exchangeId, address tokenIn, address tokenOut, uint256 amountIn)
        external
        view
        returns (uint256 amountOut)
    {
        require(msg.sender == broker, "Caller is not the Broker");
        amountOut = getAmountOut(exchangeId, tokenIn, tokenOut, amountIn);
    }
}
