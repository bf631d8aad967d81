// Builds the Action's committed bundle (action.yml `main`): the Actions runner runs
// JavaScript with no install step, so everything it needs is in one file. `npm run
// build:action`; CI fails when the committed bundle differs from a fresh build.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/action/index.ts'],
  outfile: 'dist-action/index.mjs',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  legalComments: 'eof',
  logLevel: 'warning',
});
