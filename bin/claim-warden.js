#!/usr/bin/env node
// The `claim-warden` command. An installed package runs the client's built JavaScript
// (`npm pack` builds it first through `prepack`), so it needs no TypeScript tooling at run
// time; a checkout that was never built runs the TypeScript source through tsx instead.
let client;
try {
  client = await import('../dist/src/client/cli/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli.js')) {
    throw error;
  }
  client = await fromSource();
}
process.exitCode = await client.cli(process.argv.slice(2), client.processIo());

/** The client from its source, in a checkout with its dev dependencies installed. */
async function fromSource() {
  try {
    const { tsImport } = await import('tsx/esm/api');
    return await tsImport('../src/client/cli/cli.ts', import.meta.url);
  } catch {
    process.stderr.write(
      'claim-warden: the client is not built: run `npm run build` in the claim-warden checkout\n',
    );
    process.exit(1);
  }
}
