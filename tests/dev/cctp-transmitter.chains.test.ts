import {
  type Account,
  erc20Abi,
  type Hex,
  keccak256,
  type PublicClient,
  pad,
  parseAbi,
  parseEventLogs,
  parseUnits,
  toHex,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revertReason, sandboxTokenAbi, sandboxWalletClient } from "../../dev/chains";
import { deploySandboxToken } from "../../dev/chains/deploy-token";
import type { ChainDeployer } from "../../dev/chains/deployer";
import { tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { CCTP_MESSAGE_VERSION, encodeCctpBurnMessage } from "../../lib/kernel/chain/cctp-message";
import { forwardedMintObserver } from "../../lib/vendors/circle/forwarded-mint-observer";
import { type ScratchChain, startScratchChain } from "../harness/scratch-chain";

/**
 * The intermediate chain's receive side of CCTP v2, as Circle's contracts do it: a message in
 * Circle's format, attested by the sandbox attester's signature, relayed by anyone through
 * MessageTransmitterV2.receiveMessage, mints once per nonce through the messenger, with Circle's
 * MessageReceived and MintAndWithdraw events and Circle's revert reasons for what is wrong.
 */

const SOURCE_DOMAIN = 3;
const LOCAL_DOMAIN = 6;

const FAST = 1000;
const USDC = (amount: string) => parseUnits(amount, 6);

const transmitterAbi = parseAbi([
  "function receiveMessage(bytes message, bytes attestation) returns (bool)",
  "function usedNonces(bytes32 nonce) view returns (uint256)",
  "function attester() view returns (address)",
  "event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)",
]);
const messengerAdminAbi = parseAbi([
  "function setLocalMintToken(address token)",
  "function setLocalMessageTransmitter(address transmitter)",
  "function addRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger)",
  "function feeRecipient() view returns (address)",
]);

const attester = privateKeyToAccount(generatePrivateKey());
const remoteMessenger = pad("0x5a4d", { size: 32 });
const burnToken = pad("0xb0", { size: 32 });

let scratch: ScratchChain;
let deployer: ChainDeployer;
let client: PublicClient;
let usdc: Hex;
let messenger: Hex;
let transmitter: Hex;
let chain: ScratchChain["chain"];

beforeAll(async () => {
  scratch = await startScratchChain("intermediate");
  ({ deployer, client, chain } = scratch);
  usdc = await deploySandboxToken(deployer, "usdc");
  messenger = await deployer.deploy("SandboxTokenMessengerV2", [LOCAL_DOMAIN]);
  transmitter = await deployer.deploy("SandboxMessageTransmitterV2", [
    LOCAL_DOMAIN,
    CCTP_MESSAGE_VERSION,
    attester.address,
  ]);
  const write = deployer.walletClient;
  await deployer.confirm(
    write.writeContract({
      address: usdc,
      abi: sandboxTokenAbi,
      functionName: "setMinter",
      args: [messenger, true],
    }),
    "minter",
  );
  const configure = (sent: Promise<Hex>, what: string) => deployer.confirm(sent, what);
  await configure(
    write.writeContract({
      address: messenger,
      abi: messengerAdminAbi,
      functionName: "setLocalMintToken",
      args: [usdc],
    }),
    "mint token",
  );
  await configure(
    write.writeContract({
      address: messenger,
      abi: messengerAdminAbi,
      functionName: "setLocalMessageTransmitter",
      args: [transmitter],
    }),
    "transmitter",
  );
  await configure(
    write.writeContract({
      address: messenger,
      abi: messengerAdminAbi,
      functionName: "addRemoteTokenMessenger",
      args: [SOURCE_DOMAIN, remoteMessenger],
    }),
    "remote messenger",
  );
}, 120_000);

afterAll(() => scratch?.close());

interface Burn {
  nonce: Hex;
  recipient: Hex;
  amount: bigint;
  maxFee: bigint;
  feeExecuted: bigint;
  destinationDomain?: number;
  destinationCaller?: Hex;
  sender?: Hex;
  expirationBlock?: bigint;
}

/** A CCTP v2 message as Iris attests it: the MessageV2 header and a BurnMessageV2 body. */
function messageOf(burn: Burn): Hex {
  return encodeCctpBurnMessage({
    sourceDomain: SOURCE_DOMAIN,
    destinationDomain: burn.destinationDomain ?? LOCAL_DOMAIN,
    nonce: burn.nonce,
    sender: burn.sender ?? remoteMessenger,
    recipient: pad(messenger, { size: 32 }),
    destinationCaller: burn.destinationCaller ?? pad("0x00", { size: 32 }),
    minFinalityThreshold: FAST,
    finalityThresholdExecuted: FAST,
    burnToken,
    mintRecipient: pad(burn.recipient, { size: 32 }),
    amount: burn.amount,
    messageSender: pad("0x5e4de7", { size: 32 }),
    maxFee: burn.maxFee,
    feeExecuted: burn.feeExecuted,
    expirationBlock: burn.expirationBlock ?? 0n,
    hookData: "0x",
  });
}

/** Iris's attestation: the attester's 65-byte signature over keccak256(message), no prefix. */
const attest = (message: Hex, by: PrivateKeyAccount = attester) => by.sign({ hash: keccak256(message) });

const relayer = (): Promise<Account> => scratch.freshWallet();

const receive = (by: Account, message: Hex, attestation: Hex) =>
  sandboxWalletClient(chain, by).writeContract({
    address: transmitter,
    abi: transmitterAbi,
    functionName: "receiveMessage",
    args: [message, attestation],
  });

const refusal = (by: Account, message: Hex, attestation: Hex) =>
  revertReason(
    client.simulateContract({
      account: by,
      address: transmitter,
      abi: transmitterAbi,
      functionName: "receiveMessage",
      args: [message, attestation],
    }),
  );

const balanceOf = (holder: Hex) =>
  client.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [holder] });

let nonces = 0;
const freshNonce = () => keccak256(toHex(`nonce ${nonces++} ${Math.random()}`));

describe("CCTP v2 receive on the intermediate chain (Circle's MessageTransmitterV2 and TokenMessengerV2 receive side)", () => {
  it("mints a relayed, attested message once: amount less the fee executed to the recipient, the fee to the fee recipient, with Circle's events in one receipt", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const feeRecipient = await client.readContract({
      address: messenger,
      abi: messengerAdminAbi,
      functionName: "feeRecipient",
    });
    const feesBefore = await balanceOf(feeRecipient);
    const nonce = freshNonce();
    const message = messageOf({
      nonce,
      recipient,
      amount: USDC("100"),
      maxFee: USDC("0.5"),
      feeExecuted: USDC("0.21"),
    });
    const by = await relayer();
    const hash = await receive(by, message, await attest(message));
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");

    expect(await balanceOf(recipient)).toBe(USDC("99.79"));
    expect((await balanceOf(feeRecipient)) - feesBefore).toBe(USDC("0.21"));
    const [received] = parseEventLogs({
      abi: transmitterAbi,
      eventName: "MessageReceived",
      logs: receipt.logs,
    });
    expect(received?.args).toMatchObject({
      caller: by.address,
      sourceDomain: SOURCE_DOMAIN,
      nonce,
      finalityThresholdExecuted: FAST,
    });
    const [minted] = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "MintAndWithdraw",
      logs: receipt.logs,
    });
    expect(minted?.args).toMatchObject({
      mintRecipient: recipient,
      amount: USDC("99.79"),
      mintToken: usdc,
      feeCollected: USDC("0.21"),
    });

    // The service's observer reads the mint from the relay's transaction, as from Circle's forward.
    const observer = forwardedMintObserver({
      client,
      messageTransmitter: transmitter,
      tokenMessenger: messenger,
      usdc,
    });
    const byTransaction = await observer.forwardedMint({
      eventNonce: nonce,
      mintRecipient: recipient,
      forwardTxHash: hash,
    });
    expect(byTransaction).toMatchObject({ amount: USDC("99.79"), feeCollected: USDC("0.21"), txHash: hash });
    // By the nonce alone, as when Circle reported no transaction; another nonce finds nothing.
    expect(await observer.forwardedMint({ eventNonce: nonce, mintRecipient: recipient })).toEqual(
      byTransaction,
    );
    expect(
      await observer.forwardedMint({
        eventNonce: freshNonce(),
        mintRecipient: recipient,
        forwardTxHash: hash,
      }),
    ).toBeUndefined();

    expect(await refusal(await relayer(), message, await attest(message))).toBe("Nonce already used");
    expect(await balanceOf(recipient)).toBe(USDC("99.79"));
  });

  it("refuses a message changed after it was attested, one signed by anyone but the attester, and a malformed attestation", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const burn = {
      nonce: freshNonce(),
      recipient,
      amount: USDC("10"),
      maxFee: USDC("0.5"),
      feeExecuted: USDC("0.2"),
    };
    const attestation = await attest(messageOf(burn));
    const by = await relayer();
    expect(await refusal(by, messageOf({ ...burn, amount: USDC("1000") }), attestation)).toBe(
      "Invalid signature: not attester",
    );
    const impostor = privateKeyToAccount(generatePrivateKey());
    expect(await refusal(by, messageOf(burn), await attest(messageOf(burn), impostor))).toBe(
      "Invalid signature: not attester",
    );
    expect(await refusal(by, messageOf(burn), `${attestation}00`)).toBe("Invalid attestation length");
    expect(await balanceOf(recipient)).toBe(0n);
  });

  it("refuses another domain's message, a caller the message does not name, a sender that is not the remote messenger, and a fee above maxFee", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const by = await relayer();
    const base = { recipient, amount: USDC("10"), maxFee: USDC("0.5"), feeExecuted: USDC("0.2") };
    const cases: Array<[Burn, string]> = [
      [{ ...base, nonce: freshNonce(), destinationDomain: 0 }, "Invalid destination domain"],
      [
        { ...base, nonce: freshNonce(), destinationCaller: pad("0xca11e7", { size: 32 }) },
        "Invalid caller for message",
      ],
      [
        { ...base, nonce: freshNonce(), sender: pad("0xbad", { size: 32 }) },
        "Remote TokenMessenger unsupported",
      ],
      [{ ...base, nonce: freshNonce(), feeExecuted: USDC("0.6") }, "Fee exceeds max fee"],
    ];
    for (const [burn, reason] of cases) {
      const message = messageOf(burn);
      expect(await refusal(by, message, await attest(message)), reason).toContain(reason);
    }
    // A message naming its relayer is relayed by that relayer only.
    const named = messageOf({
      ...base,
      nonce: freshNonce(),
      destinationCaller: pad(by.address, { size: 32 }),
    });
    const hash = await receive(by, named, await attest(named));
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await balanceOf(recipient)).toBe(USDC("9.8"));
  });
});
