/**
 * An MCP request counts once against the caller's limits (docs/protocol.md §8 "Limits"):
 * the token's check and a tool's API call inside it count no more, so MCP gets the same
 * budget as REST.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { caller, claimPath } from '../api/api-helpers.js';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { callTool } from './mcp-helpers.js';

const RATE = 10;

describe('the remote MCP server and the per-caller limits', () => {
  it('a tool call counts once: what MCP requests leave of the minute is the REST calls left', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      env: { CLAIMS_API_RATE_PER_MINUTE: String(RATE) },
    });
    const n = fake.createIssue(REPO);
    const token = fake.tokenFor('alice');
    // Every request the client sends that the server may count (it answers GET 405 at once).
    let counted = 0;
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${appUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: (url, init) => {
        if (init?.method !== 'GET') counted += 1;
        return fetch(url, init);
      },
    });
    await client.connect(transport);
    onTestFinished(() => client.close());
    for (let i = 0; i < 3; i++) {
      const got = await callTool(client, 'issue_get', { issue: `${REPO}#${n}` });
      expect(got.isError).toBeFalsy();
    }
    expect(counted).toBeGreaterThanOrEqual(3);

    const alice = caller(appUrl, fake, 'alice');
    let left = 0;
    while ((await alice.get(claimPath(n))).status === 200) left += 1;
    // Before: each tool call counted twice (the token's check, then the call): 3 fewer.
    expect(left).toBe(RATE - counted);
    const refused = await callTool(client, 'issue_get', { issue: `${REPO}#${n}` }).catch(
      (error: unknown) => error,
    );
    expect(String(refused)).toContain('too many calls a minute with this token');
  });
});
