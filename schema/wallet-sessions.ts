import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { organizations } from "./organizations";

/**
 * Proof that a person controls a wallet, per integration: a Sign-In with Ethereum (EIP-4361)
 * challenge the service issued, and, once the wallet's signature over it verified, the session it
 * opened. The challenge is good once; only the SHA-256 of the session token is stored.
 */
export const walletSessions = pgTable(
  "wallet_sessions",
  {
    /** Also the message's Request ID. */
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    /** EIP-55 checksummed. */
    userAddress: text("user_address").notNull(),
    nonce: text("nonce").notNull(),
    /** The EIP-4361 message exactly as issued: only it verifies. */
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    challengeExpiresAt: timestamp("challenge_expires_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Hex SHA-256 of the session token, once the signature verified. */
    tokenHash: text("token_hash"),
    signedInAt: timestamp("signed_in_at", { withTimezone: true, mode: "date" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("wallet_sessions_nonce_idx").on(table.nonce),
    uniqueIndex("wallet_sessions_token_idx").on(table.tokenHash),
    index("wallet_sessions_user_idx").on(table.integrationId, table.userAddress),
  ],
);
