// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SandboxSortedOracles
/// @notice Stands in for Mento's SortedOracles on the local destination chain. Mento's package ships
/// SortedOracles only with an unlinked library (AddressSortedLinkedListWithMedian) whose bytecode it
/// does not publish, so this answers what Mento's BiPoolManager and BreakerBox read of it
/// (medianRate, medianTimestamp, numRates, isOldestReportExpired, getOracles) from one rate per feed
/// that the sandbox operator reports. A reported feed is fresh at every block, as a feed whose oracles
/// report continuously is, until the operator marks it stale: then its oldest report has expired
/// and Mento refuses to price against it ("no valid median"). As Mento's SortedOracles does, every
/// report asks the BreakerBox, once one is set, to check the feed's circuit breakers.
interface IBreakerBox {
    function checkAndSetBreakers(address rateFeedID) external;
}

contract SandboxSortedOracles {
    struct Feed {
        uint256 numerator;
        uint256 denominator;
        uint256 staleSince;
    }

    address public immutable owner;
    address public breakerBox;
    mapping(address => Feed) private feeds;

    event OracleReported(address indexed rateFeedId, uint256 numerator, uint256 denominator);
    event FeedStale(address indexed rateFeedId, bool stale);
    event BreakerBoxSet(address breakerBox);

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "SandboxSortedOracles: caller is not the owner");
        _;
    }

    /// @notice Sets a feed's rate: `numerator / denominator` of asset0 per asset1, as Mento's feeds quote.
    function report(address rateFeedId, uint256 numerator, uint256 denominator) external onlyOwner {
        require(numerator > 0 && denominator > 0, "SandboxSortedOracles: rate must be positive");
        Feed storage feed = feeds[rateFeedId];
        feed.numerator = numerator;
        feed.denominator = denominator;
        emit OracleReported(rateFeedId, numerator, denominator);
        if (breakerBox != address(0)) IBreakerBox(breakerBox).checkAndSetBreakers(rateFeedId);
    }

    /// @notice The BreakerBox every report asks to check the feed's breakers (none: no checks).
    function setBreakerBox(address box) external onlyOwner {
        breakerBox = box;
        emit BreakerBoxSet(box);
    }

    /// @notice Marks a feed stale from now (its oracles stopped reporting), or fresh again.
    function setStale(address rateFeedId, bool stale) external onlyOwner {
        require(feeds[rateFeedId].denominator > 0, "SandboxSortedOracles: unknown feed");
        feeds[rateFeedId].staleSince = stale ? block.timestamp : 0;
        emit FeedStale(rateFeedId, stale);
    }

    function medianRate(address rateFeedId) external view returns (uint256, uint256) {
        Feed storage feed = feeds[rateFeedId];
        return (feed.numerator, feed.denominator);
    }

    function medianTimestamp(address rateFeedId) external view returns (uint256) {
        Feed storage feed = feeds[rateFeedId];
        if (feed.denominator == 0) return 0;
        return feed.staleSince == 0 ? block.timestamp : feed.staleSince;
    }

    function numRates(address rateFeedId) external view returns (uint256) {
        return feeds[rateFeedId].denominator == 0 ? 0 : 1;
    }

    function isOldestReportExpired(address rateFeedId) external view returns (bool, address) {
        Feed storage feed = feeds[rateFeedId];
        return (feed.denominator == 0 || feed.staleSince != 0, owner);
    }

    function getOracles(address rateFeedId) external view returns (address[] memory oracles) {
        if (feeds[rateFeedId].denominator == 0) return new address[](0);
        oracles = new address[](1);
        oracles[0] = owner;
    }
}
