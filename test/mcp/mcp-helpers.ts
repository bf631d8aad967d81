import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An MCP client connected to the app's `/mcp` through the SDK's Streamable HTTP transport. */
export async function mcpClient(
  appUrl: string,
  token: string | undefined,
  name = 'test-agent',
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${appUrl}/mcp`), {
    requestInit: {
      headers: { ...headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    },
  });
  await client.connect(transport);
  return client;
}

/** Calls `tool` and returns its result (the SDK validates structured content on the way). */
export async function callTool(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  options: Parameters<Client['callTool']>[2] = {},
): Promise<CallToolResult> {
  return (await client.callTool(
    { name: tool, arguments: args },
    undefined,
    options,
  )) as CallToolResult;
}

/** The API error object a refusal's text carries. */
// biome-ignore lint/suspicious/noExplicitAny: JSON asserted on shape by the tests
export function errorOf(result: CallToolResult): any {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text).error;
}

/** A claim tool call's arguments for `session` on issue `n` of acme/widgets. */
export function claimArgs(n: number, session: string, extra: Record<string, unknown> = {}) {
  return {
    issue: `acme/widgets#${n}`,
    session,
    lane: `lane-${session}`,
    branch: `feat/${session}`,
    ...extra,
  };
}
