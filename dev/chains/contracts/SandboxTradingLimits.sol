// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SandboxTradingLimits
/// @notice Mento's trading-limit rules (mento-core TradingLimits) re-expressed for the sandbox broker,
/// so its headroom reads and its failures look like Mento's:
/// - flows are counted in whole token units (int48); a non-zero flow below one unit counts as one;
/// - L0 and L1 are netflows over time windows that restart when a trade comes in after
///   `lastUpdated + timestep`; L1 is only tracked while L0 is on;
/// - LG is a lifetime netflow, kept until the limit is switched off;
/// - a trade fails when any enabled netflow leaves [-limit, +limit]: "L0 Exceeded", "L1 Exceeded",
///   "LG Exceeded".
library SandboxTradingLimits {
    uint8 internal constant L0 = 1;
    uint8 internal constant L1 = 2;
    uint8 internal constant LG = 4;

    /// @dev Same fields, order and packing as Mento's ITradingLimits.State.
    struct State {
        uint32 lastUpdated0;
        uint32 lastUpdated1;
        int48 netflow0;
        int48 netflow1;
        int48 netflowGlobal;
    }

    /// @dev Same fields, order and packing as Mento's ITradingLimits.Config.
    struct Config {
        uint32 timestep0;
        uint32 timestep1;
        int48 limit0;
        int48 limit1;
        int48 limitGlobal;
        uint8 flags;
    }

    function isOn(Config memory config, uint8 flag) internal pure returns (bool) {
        return config.flags & flag != 0;
    }

    /// @notice Rejects configurations Mento rejects, with Mento's messages.
    function validate(Config memory config) internal pure {
        bool l0 = isOn(config, L0);
        bool l1 = isOn(config, L1);
        bool lg = isOn(config, LG);
        require(!l1 || l0, "L1 without L0 not allowed");
        require(!l0 || config.timestep0 > 0, "timestep0 can't be zero if active");
        require(!l1 || config.timestep1 > 0, "timestep1 can't be zero if active");
        require(!l0 || config.limit0 > 0, "limit0 can't be zero if active");
        require(!l1 || config.limit1 > 0, "limit1 can't be zero if active");
        require(!lg || config.limitGlobal > 0, "limitGlobal can't be zero if active");
        require(!(l0 && l1) || config.limit0 < config.limit1, "limit1 must be greater than limit0");
        require(!(l1 && lg) || config.limit1 < config.limitGlobal, "limitGlobal must be greater than limit1");
        require(!(l0 && lg) || config.limit0 < config.limitGlobal, "limitGlobal must be greater than limit0");
    }

    /// @notice The state to keep after a reconfiguration: windows restart on the next trade and the
    /// netflow of a limit that is now off is forgotten.
    function afterReconfiguration(State memory state, Config memory config) internal pure returns (State memory) {
        state.lastUpdated0 = 0;
        state.lastUpdated1 = 0;
        if (!isOn(config, L0)) state.netflow0 = 0;
        if (!isOn(config, L1)) state.netflow1 = 0;
        if (!isOn(config, LG)) state.netflowGlobal = 0;
        return state;
    }

    /// @notice Adds one trade's flow (positive into the exchange, negative out of it) to the state.
    function record(State memory state, Config memory config, int256 flow, uint8 decimals)
        internal
        view
        returns (State memory)
    {
        if (flow == 0) return state;
        int48 units = wholeUnits(flow, decimals);

        if (isOn(config, L0)) {
            if (block.timestamp > uint256(state.lastUpdated0) + config.timestep0) {
                state.netflow0 = 0;
                state.lastUpdated0 = uint32(block.timestamp);
            }
            state.netflow0 = add48(state.netflow0, units);

            if (isOn(config, L1)) {
                if (block.timestamp > uint256(state.lastUpdated1) + config.timestep1) {
                    state.netflow1 = 0;
                    state.lastUpdated1 = uint32(block.timestamp);
                }
                state.netflow1 = add48(state.netflow1, units);
            }
        }
        if (isOn(config, LG)) {
            state.netflowGlobal = add48(state.netflowGlobal, units);
        }
        return state;
    }

    /// @notice Reverts when an enabled netflow is outside its limit.
    function enforce(State memory state, Config memory config) internal pure {
        if (isOn(config, L0) && outside(state.netflow0, config.limit0)) revert("L0 Exceeded");
        if (isOn(config, L1) && outside(state.netflow1, config.limit1)) revert("L1 Exceeded");
        if (isOn(config, LG) && outside(state.netflowGlobal, config.limitGlobal)) revert("LG Exceeded");
    }

    function outside(int48 netflow, int48 limit) private pure returns (bool) {
        return netflow > limit || netflow < -limit;
    }

    function wholeUnits(int256 flow, uint8 decimals) private pure returns (int48) {
        int256 units = flow / int256(10 ** uint256(decimals));
        require(units <= type(int48).max, "dFlow too large");
        require(units >= type(int48).min, "dFlow too small");
        if (units == 0) return flow > 0 ? int48(1) : int48(-1);
        return int48(units);
    }

    function add48(int48 a, int48 b) private pure returns (int48) {
        int256 sum = int256(a) + int256(b);
        require(sum >= type(int48).min && sum <= type(int48).max, "int48 addition overflow");
        return int48(sum);
    }
}
