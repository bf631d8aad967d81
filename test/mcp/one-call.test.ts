/**
 * A remote tool call is one call of the operation, as the MCP request's caller: each MCP request
 * counts once against the token's limits (docs/protocol.md §8 "Limits"), as one REST call does,
 * so a loop gets as many tool calls a minute as it would get REST calls.
 */
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';

const RATE = 5;
// The caller limits refill on the app's clock: held still, no call is given back mid-test.
const STILL = new Date('2026-03-01T12:00:00Z');

describe('one MCP tool call', () => {
  it('counts once against the caller’s limits: with a budget of 5, initialize and 4 tool calls pass, the next is 429', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      env: { CLAIMS_API_RATE_PER_MINUTE: String(RATE) },
      main: { now: () => STILL },
    });
    const n = fake.createIssue(REPO);
    const post = (message: object, session?: string) =>
      fetch(`${appUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${fake.tokenFor('alice')}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      });
    const opened = await post({
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'budget', version: '1' },
      },
    });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get('mcp-session-id')!;
    const get = (id: number) =>
      post(
        {
          id,
          method: 'tools/call',
          params: { name: 'issue_get', arguments: { issue: `${REPO}#${n}` } },
        },
        session,
      );
    for (let id = 1; id < RATE; id++) {
      const answer = await get(id);
      const text = await answer.text();
      expect({ id, status: answer.status }).toEqual({ id, status: 200 });
      expect(text).toContain('"structuredContent"');
    }
    const past = await get(RATE);
    expect(past.status).toBe(429);
    expect(past.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });
});
