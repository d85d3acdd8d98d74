// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev What the transmitter calls on a message's recipient (Circle's IMessageHandlerV2).
interface IMessageHandlerV2 {
    function handleReceiveFinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);

    function handleReceiveUnfinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);
}

/// @title SandboxMessageTransmitterV2
/// @notice The receive side of Circle's CCTP v2 MessageTransmitterV2 for the local sandbox chains:
/// `receiveMessage(message, attestation)` with Circle's message format, one attester (the sandbox's
/// Iris stand-in) whose 65-byte ECDSA signature over keccak256(message) must match, each nonce
/// received once, the recipient's handler called by finality, and Circle's MessageReceived event and
/// revert reasons. Anyone may relay a message whose destinationCaller is zero; a message names its
/// nonce, so the same burn can never mint twice, whoever relays it.
contract SandboxMessageTransmitterV2 {
    uint32 public immutable localDomain;
    uint32 public immutable version;
    address public immutable attester;
    /// @notice 1 once a nonce's message was received, as Circle's `usedNonces`.
    mapping(bytes32 => uint256) public usedNonces;

    uint32 private constant FINALITY_THRESHOLD_FINALIZED = 2000;
    uint256 private constant SIGNATURE_LENGTH = 65;
    uint256 private constant MESSAGE_BODY_INDEX = 148;
    // secp256k1n / 2: a signature with a larger s is the malleable twin of another.
    uint256 private constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    event MessageReceived(
        address indexed caller,
        uint32 sourceDomain,
        bytes32 indexed nonce,
        bytes32 sender,
        uint32 indexed finalityThresholdExecuted,
        bytes messageBody
    );

    constructor(uint32 localDomain_, uint32 version_, address attester_) {
        require(attester_ != address(0), "New attester must be nonzero");
        localDomain = localDomain_;
        version = version_;
        attester = attester_;
    }

    function receiveMessage(bytes calldata message, bytes calldata attestation) external returns (bool) {
        require(attestation.length == SIGNATURE_LENGTH, "Invalid attestation length");
        require(recoverAttester(keccak256(message), attestation) == attester, "Invalid signature: not attester");
        require(message.length >= MESSAGE_BODY_INDEX, "Invalid message: too short");
        require(uint32(bytes4(message[8:12])) == localDomain, "Invalid destination domain");
        bytes32 destinationCaller = bytes32(message[108:140]);
        if (destinationCaller != bytes32(0)) {
            require(destinationCaller == bytes32(uint256(uint160(msg.sender))), "Invalid caller for message");
        }
        require(uint32(bytes4(message[0:4])) == version, "Invalid message version");
        bytes32 nonce = bytes32(message[12:44]);
        require(usedNonces[nonce] == 0, "Nonce already used");
        usedNonces[nonce] = 1;

        uint32 sourceDomain = uint32(bytes4(message[4:8]));
        bytes32 sender = bytes32(message[44:76]);
        address recipient = address(uint160(uint256(bytes32(message[76:108]))));
        uint32 finalityThresholdExecuted = uint32(bytes4(message[144:148]));
        bytes calldata body = message[MESSAGE_BODY_INDEX:];
        if (finalityThresholdExecuted < FINALITY_THRESHOLD_FINALIZED) {
            require(
                IMessageHandlerV2(recipient).handleReceiveUnfinalizedMessage(
                    sourceDomain,
                    sender,
                    finalityThresholdExecuted,
                    body
                ),
                "handleReceiveUnfinalizedMessage() failed"
            );
        } else {
            require(
                IMessageHandlerV2(recipient).handleReceiveFinalizedMessage(
                    sourceDomain,
                    sender,
                    finalityThresholdExecuted,
                    body
                ),
                "handleReceiveFinalizedMessage() failed"
            );
        }
        emit MessageReceived(msg.sender, sourceDomain, nonce, sender, finalityThresholdExecuted, body);
        return true;
    }

    function recoverAttester(bytes32 digest, bytes calldata signature) private pure returns (address) {
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        require(uint256(s) <= HALF_N, "ECDSA: invalid signature 's' value");
        require(v == 27 || v == 28, "ECDSA: invalid signature 'v' value");
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "ECDSA: invalid signature");
        return signer;
    }
}
