// npm runs this after `npm install` (the root package's postinstall). Under Node 22 or newer it does
// nothing. Under an older Node, npm has just skipped the optional packages that require Node 22
// (Hardhat EDR's native binary among them), so the chains could not start: this provisions Node 22
// from the npm registry (dev/node22.sh) and runs the same install again under it, which adds them.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const major = Number(process.versions.node.split(".")[0]);
if (major < 22 && process.env.COPM_INSTALLING_UNDER_NODE22 !== "1") {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  console.error(
    `Node ${process.versions.node} skipped packages that need Node 22: installing again under Node 22`,
  );
  execFileSync("bash", ["-c", "source dev/node22.sh && exec npm install --no-audit --no-fund"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, COPM_INSTALLING_UNDER_NODE22: "1" },
  });
}
