#!/usr/bin/env node
// The `claim-warden` command: runs the client from its TypeScript source through tsx, so an
// install needs no build step.
import { tsImport } from 'tsx/esm/api';

const { cli, processIo } = await tsImport('../src/client/cli/cli.ts', import.meta.url);
process.exitCode = await cli(process.argv.slice(2), processIo());
