/**
 * Names, input schemas and descriptions of the remote tools agree with the stdio server's
 * where a tool exists in both.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpServer } from '../../src/client/cli/mcp-server.js';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { mcpClient } from './mcp-helpers.js';

async function stdioTools(): Promise<Tool[]> {
  const server = mcpServer({ runtime: {} as never, version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'agreement', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

// Only the stdio server reads threads itself, so only it takes a stale window.
const STDIO_ONLY = new Set(['staleAfter']);

describe('remote and stdio tools', () => {
  it('share names, titles, descriptions and input fields where a tool exists in both', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const client = await mcpClient(appUrl, fake.tokenFor('alice'));
    onTestFinished(() => client.close());
    const remote = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    const local = await stdioTools();
    const shared = local.filter((t) => remote.has(t.name)).map((t) => t.name);
    expect(shared.sort()).toEqual([
      'issue_claim',
      'issue_release',
      'issues_list',
      'paths_check',
      'release_all_claims',
    ]);
    for (const tool of local.filter((t) => remote.has(t.name))) {
      const other = remote.get(tool.name)!;
      expect(other.title).toBe(tool.title);
      // The stdio text less what only holds there (it needs CLAIM_WARDEN_URL to reach the app).
      const base = tool
        .description!.replace(/ Needs CLAIM_WARDEN_URL\./, '')
        .replace(/ Refused when another live claim holds one\./, '');
      expect(other.description!.startsWith(base.replace(/\.$/, ''))).toBe(true);
      expect(other.outputSchema?.type).toBe('object');
      const props = tool.inputSchema.properties as Record<
        string,
        { type?: string; description?: string }
      >;
      const theirs = other.inputSchema.properties as Record<
        string,
        { type?: string; description?: string }
      >;
      for (const [name, schema] of Object.entries(props)) {
        if (STDIO_ONLY.has(name)) continue;
        expect(theirs[name], `${tool.name}.${name}`).toBeDefined();
        expect(theirs[name]!.type, `${tool.name}.${name}`).toBe(schema.type);
        // The session differs on purpose: remote writes it as given, stdio as a keyed tag.
        if (name !== 'session' && name !== 'lane') {
          expect(theirs[name]!.description, `${tool.name}.${name}`).toBe(schema.description);
        }
      }
    }
  });
});
