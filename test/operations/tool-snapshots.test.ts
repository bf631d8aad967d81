/**
 * The tool lists of both MCP servers and the route lists, as committed snapshots (the habit of
 * github-mcp-server's `__toolsnaps__`): a change to a name, a description or a schema fails
 * here until its snapshot is updated with it (`npx vitest run -u`), so a review sees it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/api/claims-api.js';
import { ROUTE_TABLE } from '../../src/app/route-table.js';
import { mcpServer } from '../../src/client/cli/mcp-server.js';
import { registerRemoteTools } from '../../src/mcp/remote-tools.js';
import { OPERATIONS } from '../../src/operations/catalogue.js';

async function toolsOf(server: McpServer): Promise<Tool[]> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'snapshots', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

// Listing tools calls nothing: the context's API and caller are never used.
const remoteServer = () => {
  const server = new McpServer({ name: 'claim-warden', version: 'test' });
  registerRemoteTools(server, {
    api: {} as never,
    caller: {} as never,
    client: undefined,
    progressEveryMs: 1000,
  });
  return server;
};

const snapshot = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('tool and route snapshots', () => {
  it.each([
    ['remote', remoteServer],
    ['stdio', () => mcpServer({ runtime: {} as never, version: 'test' })],
  ])('the %s MCP server lists the tools of its snapshots', async (kind, make) => {
    const tools = await toolsOf(make());
    await expect(snapshot(tools.map((t) => t.name))).toMatchFileSnapshot(
      `__toolsnaps__/${kind}/tools.json`,
    );
    for (const tool of tools) {
      await expect(snapshot(tool)).toMatchFileSnapshot(`__toolsnaps__/${kind}/${tool.name}.json`);
    }
  });

  it('the server routes and the API routes are those of the snapshot', async () => {
    const routes = {
      server: ROUTE_TABLE,
      api: OPERATIONS.map((op) => ({
        operation: op.name,
        route: `${op.method} ${API_PREFIX}${op.route}`,
        tool: op.tool,
      })),
    };
    await expect(snapshot(routes)).toMatchFileSnapshot('__toolsnaps__/routes.json');
  });
});
