/**
 * The stdio server's answers to bad input: a line that is not JSON gets a -32700
 * parse error; arguments that fail a tool's input schema get the documented result envelope.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../../src/client/cli/mcp-server.js';
import { type Harness, harness } from '../client/harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROGRAM = ['--import', 'tsx', 'src/client/cli/cli.ts', 'mcp'];

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
});

/** Writes `lines` to `claim-warden mcp` and resolves the first `count` lines it answers. */
function answers(lines: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, PROGRAM, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const got = out.split('\n').filter(Boolean);
      if (got.length >= count) {
        child.kill();
        resolve(got.slice(0, count));
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out.split('\n').filter(Boolean)));
    child.stdin.write(lines);
  });
}

describe('claim-warden mcp (stdio)', () => {
  it('answers a line that is not JSON with a -32700 parse error and keeps serving', async () => {
    const [parse, invalid, pong] = await answers(
      'this is not json\n{"hello":1}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
      3,
    );
    expect(JSON.parse(parse!)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringContaining('Parse error') },
    });
    expect(JSON.parse(invalid!)).toMatchObject({ id: null, error: { code: -32600 } });
    expect(JSON.parse(pong!)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers arguments that fail the input schema with the usage envelope', async () => {
    const server = mcpServer({ runtime: h.runtime('alice'), version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'schema-test', version: '1' });
    await client.connect(clientSide);
    const result = await client.callTool({
      name: 'issue_claim',
      arguments: { issue: 7, session: 's', lane: 'l' },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: 'usage',
      exitCode: 2,
      message: expect.stringContaining('invalid input'),
    });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /not found/,
    );
    await client.close();
  });
});
