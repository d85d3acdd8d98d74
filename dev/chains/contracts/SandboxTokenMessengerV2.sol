// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev What the messenger needs from the token it burns (SandboxToken has both).
interface IBurnableToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function burn(uint256 amount) external;
}

/// @dev What the messenger needs from the token it mints on receipt (SandboxToken, once it is a minter).
interface IMintableToken {
    function mint(address to, uint256 amount) external;
}

/// @title SandboxTokenMessengerV2
/// @notice The burn side of Circle's CCTP v2 TokenMessengerV2 for the local sandbox chains: the same
/// external signatures, the same DepositForBurn event and the same revert reasons where a caller can
/// hit them. The source side emits no message: the sandbox's Iris stand-in builds Circle's message
/// from DepositForBurn. Burn limits live here rather than on a separate TokenMinter.
/// @notice The receive side is Circle's: SandboxMessageTransmitterV2.receiveMessage, once the
/// attestation checks out, calls handleReceive(Un)finalizedMessage, which mints as the real
/// TokenMessengerV2 does (`amount - feeExecuted` to the recipient, the fee to `feeRecipient`) and
/// emits the real MintAndWithdraw from this contract, where clients of the real chain look for it.
contract SandboxTokenMessengerV2 {
    /// @notice The CCTP domain of the chain this messenger runs on.
    uint32 public immutable localDomain;
    address public owner;

    /// @notice The TokenMessenger of each remote domain, as bytes32 (zero when none is configured).
    mapping(uint32 => bytes32) public remoteTokenMessengers;
    /// @notice Largest amount one deposit may burn; zero means the token cannot be burned here.
    mapping(address => uint256) public burnLimitsPerMessage;

    /// @notice The token a received burn mints (the real messenger asks its TokenMinter per burn
    /// token); zero on a chain that only burns.
    address public localMintToken;
    /// @notice Where the fee of a received burn goes (the real messenger's `feeRecipient`).
    address public feeRecipient;

    event DepositForBurn(
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 indexed minFinalityThreshold,
        bytes hookData
    );
    event RemoteTokenMessengerAdded(uint32 domain, bytes32 tokenMessenger);
    event RemoteTokenMessengerRemoved(uint32 domain, bytes32 tokenMessenger);
    event SetBurnLimitPerMessage(address indexed token, uint256 burnLimitPerMessage);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    /// @notice The real BaseTokenMessenger event: `amount` is what `mintRecipient` received, after
    /// `feeCollected` was taken (TokenMessengerV2.handleReceiveUnfinalizedMessage passes amount - fee).
    event MintAndWithdraw(
        address indexed mintRecipient,
        uint256 amount,
        address indexed mintToken,
        uint256 feeCollected
    );
    event FeeRecipientSet(address feeRecipient);
    event LocalMintTokenSet(address token);

    constructor(uint32 localDomain_) {
        localDomain = localDomain_;
        owner = msg.sender;
        // The operator stands in for Circle, so it collects Circle's fees unless told otherwise.
        feeRecipient = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
        emit FeeRecipientSet(msg.sender);
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

    function addRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger) external onlyOwner {
        require(tokenMessenger != bytes32(0), "bytes32(0) not allowed");
        require(remoteTokenMessengers[domain] == bytes32(0), "TokenMessenger already set");
        remoteTokenMessengers[domain] = tokenMessenger;
        emit RemoteTokenMessengerAdded(domain, tokenMessenger);
    }

    function removeRemoteTokenMessenger(uint32 domain) external onlyOwner {
        bytes32 removed = remoteTokenMessengers[domain];
        require(removed != bytes32(0), "No TokenMessenger set");
        delete remoteTokenMessengers[domain];
        emit RemoteTokenMessengerRemoved(domain, removed);
    }

    /// @notice Supports `token` (limit > 0) or stops supporting it (limit = 0).
    function setMaxBurnAmountPerMessage(address token, uint256 burnLimitPerMessage) external onlyOwner {
        burnLimitsPerMessage[token] = burnLimitPerMessage;
        emit SetBurnLimitPerMessage(token, burnLimitPerMessage);
    }

    /// @notice Makes received burns mint `token`; this messenger must also be one of its minters.
    function setLocalMintToken(address token) external onlyOwner {
        require(token != address(0), "Zero address not allowed");
        localMintToken = token;
        emit LocalMintTokenSet(token);
    }

    function setFeeRecipient(address newFeeRecipient) external onlyOwner {
        require(newFeeRecipient != address(0), "Zero address not allowed");
        feeRecipient = newFeeRecipient;
        emit FeeRecipientSet(newFeeRecipient);
    }

    /// @notice The transmitter whose received messages this messenger mints for (Circle's
    /// `localMessageTransmitter`); zero until the owner sets it.
    address public localMessageTransmitter;

    event LocalMessageTransmitterSet(address transmitter);

    function setLocalMessageTransmitter(address transmitter) external onlyOwner {
        require(transmitter != address(0), "Zero address not allowed");
        localMessageTransmitter = transmitter;
        emit LocalMessageTransmitterSet(transmitter);
    }

    /// @notice Circle's receive path: the transmitter, having checked the attestation and spent the
    /// nonce, hands over a BurnMessageV2 from a remote messenger; it mints once per nonce, as the
    /// transmitter receives each nonce once.
    function handleReceiveFinalizedMessage(
        uint32 remoteDomain,
        bytes32 sender,
        uint32,
        bytes calldata messageBody
    ) external returns (bool) {
        return _handleReceive(remoteDomain, sender, messageBody);
    }

    function handleReceiveUnfinalizedMessage(
        uint32 remoteDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool) {
        require(finalityThresholdExecuted >= 500, "Unsupported finality threshold");
        return _handleReceive(remoteDomain, sender, messageBody);
    }

    /// BurnMessageV2: version 0, burnToken 4, mintRecipient 36, amount 68, messageSender 100,
    /// maxFee 132, feeExecuted 164, expirationBlock 196, hookData 228.
    function _handleReceive(uint32 remoteDomain, bytes32 sender, bytes calldata body) private returns (bool) {
        require(msg.sender == localMessageTransmitter, "Invalid message transmitter");
        require(
            sender != bytes32(0) && remoteTokenMessengers[remoteDomain] == sender,
            "Remote TokenMessenger unsupported"
        );
        require(body.length >= 228, "Invalid burn message");
        require(uint32(bytes4(body[0:4])) == 1, "Invalid message body version");
        uint256 expirationBlock = uint256(bytes32(body[196:228]));
        require(expirationBlock == 0 || expirationBlock > block.number, "Message expired and must be re-signed");
        address mintRecipient = address(uint160(uint256(bytes32(body[36:68]))));
        uint256 amount = uint256(bytes32(body[68:100]));
        uint256 maxFee = uint256(bytes32(body[132:164]));
        uint256 feeExecuted = uint256(bytes32(body[164:196]));
        require(feeExecuted <= maxFee, "Fee exceeds max fee");
        _mintBurned(mintRecipient, amount, feeExecuted);
        return true;
    }

    /// @dev Mints a burn as the real TokenMessengerV2 does: `amount - fee` to the recipient, the fee to
    /// `feeRecipient`, and MintAndWithdraw with what the recipient received.
    function _mintBurned(address mintRecipient, uint256 amount, uint256 fee) private {
        address mintToken = localMintToken;
        require(mintToken != address(0), "Local minter is not set");
        require(mintRecipient != address(0), "Mint recipient must be nonzero");
        require(amount > 0, "Amount must be nonzero");
        require(fee == 0 || fee < amount, "Fee equals or exceeds amount");
        uint256 received = amount - fee;
        IMintableToken(mintToken).mint(mintRecipient, received);
        if (fee > 0) IMintableToken(mintToken).mint(feeRecipient, fee);
        emit MintAndWithdraw(mintRecipient, received, mintToken, fee);
    }

    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external {
        _depositForBurn(
            amount,
            destinationDomain,
            mintRecipient,
            burnToken,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            msg.data[0:0]
        );
    }

    /// @notice Like depositForBurn, with hook data for the destination (Circle's Forwarding Service
    /// reads its "cctp-forward" request from here).
    function depositForBurnWithHook(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hookData
    ) external {
        require(hookData.length > 0, "Hook data is empty");
        _depositForBurn(
            amount,
            destinationDomain,
            mintRecipient,
            burnToken,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            hookData
        );
    }

    function _depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hookData
    ) private {
        require(amount > 0, "Amount must be nonzero");
        require(mintRecipient != bytes32(0), "Mint recipient must be nonzero");
        require(maxFee < amount, "Max fee must be less than amount");
        bytes32 destinationTokenMessenger = remoteTokenMessengers[destinationDomain];
        _pullAndBurn(burnToken, amount);

        emit DepositForBurn(
            burnToken,
            amount,
            msg.sender,
            mintRecipient,
            destinationDomain,
            destinationTokenMessenger,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            hookData
        );
    }

    /// @dev Pulls the deposit, then burns what this contract now holds: the depositor's tokens are gone
    /// for good. Kept apart from _depositForBurn so the event's many fields fit on the stack.
    function _pullAndBurn(address burnToken, uint256 amount) private {
        uint256 burnLimit = burnLimitsPerMessage[burnToken];
        require(burnLimit > 0, "Burn token not supported");
        require(amount <= burnLimit, "Burn amount exceeds per tx limit");
        require(IBurnableToken(burnToken).transferFrom(msg.sender, address(this), amount), "Transfer operation failed");
        IBurnableToken(burnToken).burn(amount);
    }
}
