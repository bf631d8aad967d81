// Builds the agent client's package (packages/client): the CLI and its stdio MCP server in one
// file, dist/cli.js, with its dependencies (zod, the MCP SDK, octokit) inside, so an install
// fetches nothing and brings no server. `npm run build:client`; packing the package runs it.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = join(root, 'packages/client');

// The app's server dependencies: one of them in the bundle means the client imports the app.
const SERVER_ONLY = [
  'probot',
  '@probot/pino',
  'pino',
  'pino-http',
  '@octokit/webhooks',
  'bullmq',
  'ioredis',
  'prom-client',
  'express',
  'tsx',
];

const version = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
if (version(pkg) !== version(root)) {
  throw new Error(
    `packages/client/package.json has version ${version(pkg)}, the app ${version(root)}: make them equal`,
  );
}

rmSync(join(pkg, 'dist'), { recursive: true, force: true });
const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: ['src/client/cli/cli.ts'],
  outfile: join(pkg, 'dist/cli.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});

const server = Object.keys(metafile.inputs).filter((input) =>
  SERVER_ONLY.some((name) => input.includes(`node_modules/${name}/`)),
);
if (server.length > 0) {
  throw new Error(`the client bundle pulls in server dependencies:\n  ${server.join('\n  ')}`);
}

mkdirSync(join(pkg, 'docs'), { recursive: true });
copyFileSync(join(root, 'docs/agents.md'), join(pkg, 'docs/agents.md'));
