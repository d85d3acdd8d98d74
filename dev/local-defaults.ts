/** The local admin token of `npm run dev`, documented in the README; ADMIN_TOKEN overrides it. */
export const LOCAL_ADMIN_TOKEN = "local-admin-token-for-development-only-0000";
