#!/usr/bin/env node
// The `claim-warden` command: runs the client's built JavaScript (`npm run build`, which
// `npm pack` runs first through `prepack`), so an installed package needs no TypeScript
// tooling at run time.
let client;
try {
  client = await import('../dist/src/client/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli.js')) {
    throw error;
  }
  process.stderr.write(
    'claim-warden: the client is not built: run `npm run build` in the claim-warden checkout\n',
  );
  process.exit(1);
}
process.exitCode = await client.cli(process.argv.slice(2), client.processIo());
