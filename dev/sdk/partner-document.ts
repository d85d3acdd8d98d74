import { join } from "node:path";
import { openApiDocument } from "../../lib/composition/app";
import { PROJECT_ROOT } from "../paths";

export const SDK_DIR = join(PROJECT_ROOT, "sdk");

/** What a partner integrates with: the partner API and the health check; no admin, no provider callbacks. */
const PARTNER_PATHS = /^\/(api\/integrations\/|health$)/;

type Document = Awaited<ReturnType<typeof openApiDocument>>;

export async function partnerDocument(): Promise<Document> {
  const full = await openApiDocument("https://api.example.invalid");
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {}).filter(([path]) => PARTNER_PATHS.test(path)),
  );
  // No server: the client is always given its base URL (a deployment's, or the local stack's).
  const { servers: _servers, ...rest } = full;
  return { ...rest, paths };
}
