// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/identity/. */
export const IDENTITY_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/identity/get-kyc"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/kyc", operationId: "getBrebKyc" },
      { method: "GET", path: "/api/breb/kyc" },
    ],
  },
  {
    load: () => import("../../../functions/identity/kyc-callback"),
    routes: [
      { method: "POST", path: "/callbacks/kyc", operationId: "kycCallback" },
    ],
  },
  {
    load: () => import("../../../functions/identity/send-otp"),
    routes: [
      { method: "POST", path: "/api/integrations/breb/kyc/otp/send", operationId: "sendBrebOtp" },
      { method: "POST", path: "/api/breb/kyc/otp/send" },
    ],
  },
  {
    load: () => import("../../../functions/identity/verify-otp"),
    routes: [
      { method: "POST", path: "/api/integrations/breb/kyc/otp/verify", operationId: "verifyBrebOtp" },
      { method: "POST", path: "/api/breb/kyc/otp/verify" },
    ],
  },
  {
    load: () => import("../../../functions/identity/wallet-challenge"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/breb/kyc/wallet/challenge",
        operationId: "createBrebWalletChallenge",
      },
      { method: "POST", path: "/api/breb/kyc/wallet/challenge" },
    ],
  },
  {
    load: () => import("../../../functions/identity/wallet-session"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/breb/kyc/wallet/session",
        operationId: "openBrebWalletSession",
      },
      { method: "POST", path: "/api/breb/kyc/wallet/session" },
    ],
  },
];
