/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`) against the
 * app's `/mcp`: the real app (main()) on the HTTP fake of GitHub, behind a loopback proxy that
 * adds a collaborator's token to each request (the suite sends none, and `/mcp` answers 401
 * without one). The suite runs under the Node given as NODE22 (it needs Node 22 or later).
 * Every scenario that applies to a tools-only server must pass; see APPLIES below.
 */
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startHarness } from '../test/helpers/app-harness.js';

/** The server scenarios of the suite that a tools-only, stateless server answers. */
const APPLIES = [
  'server-initialize',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

const node22 = process.env.NODE22 ?? process.execPath;
const cli = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const harness = await startHarness();
const token = harness.fake.tokenFor('alice');
const target = new URL(harness.appUrl);
// Host and Origin pass through as the suite sent them: the DNS-rebinding scenario checks them.
const proxy = createServer((req, res) => {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, authorization: `Bearer ${token}` },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const url = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;

let failed = 0;
const only = process.argv.slice(2);
for (const scenario of only.length > 0 ? only : APPLIES) {
  // Asynchronously: the app answers from this very process, so its event loop must run.
  const child = spawn(node22, [cli, 'server', '--url', url, '--scenario', scenario], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const killer = setTimeout(() => child.kill(), 120_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(killer);
  const ok = code === 0;
  if (!ok) failed += 1;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${scenario}`);
}
console.log(
  `conformance: ${(only.length > 0 ? only : APPLIES).length - failed} passed, ${failed} failed`,
);
proxy.close();
await harness.close();
process.exit(failed === 0 ? 0 : 1);
