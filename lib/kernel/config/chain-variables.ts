import { z } from "zod";
import { sandboxNetworkSchema } from "../chain/descriptor";
import { variable } from "./described";
import { optionalUrl, privateKey, safeJson, sourceRpcUrlsSchema } from "./formats";

/** The chains' endpoints and the local sandbox's variables, spread into the list in variables.ts. */
export const chainVariables = {
  SOURCE_RPC_URL: variable(optionalUrl, {
    about:
      "JSON-RPC endpoint of the profile's first source chain, the default (a secret when it carries a key)",
  }),
  SOURCE_RPC_URLS: variable(
    z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return {};
        const parsed = sourceRpcUrlsSchema.safeParse(safeJson(raw));
        if (parsed.success) return parsed.data;
        ctx.addIssue({ code: "custom", message: 'must be JSON like {"1": "https://…", "10": "https://…"}' });
        return z.NEVER;
      }),
    {
      about:
        'JSON-RPC endpoints of the profile\'s other source chains by chain id, JSON like `{"1": "https://…"}` (a secret when one carries a key); a source chain is offered only when its endpoint is known',
    },
  ),
  INTERMEDIATE_RPC_URL: variable(optionalUrl, {
    about: "JSON-RPC endpoint of the intermediate chain (a secret when it carries a key)",
  }),
  DESTINATION_RPC_URL: variable(optionalUrl, {
    about: "JSON-RPC endpoint of the destination chain (a secret when it carries a key)",
  }),
  /** The local chains' descriptor (JSON), written by `npm run dev` and the tests; local profile only. */
  SANDBOX_NETWORK: variable(
    z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return undefined;
        const parsed = sandboxNetworkSchema.safeParse(safeJson(raw));
        if (parsed.success) return parsed.data;
        ctx.addIssue({ code: "custom", message: "must be the JSON sandbox network descriptor" });
        return z.NEVER;
      }),
    {
      about: "the local chains' descriptor (JSON), written by `npm run dev` and the tests",
      only: "the local profile",
    },
  ),
  /** Signs the sandbox faucet's mints on the local chains; mock mode only. */
  SANDBOX_OPERATOR_KEY: variable(privateKey.optional(), {
    about: "signs the sandbox faucet's mints on the local chains",
    secret: true,
    only: "mock mode",
  }),
};
