/**
 * The remote MCP server end to end: the SDK's Streamable HTTP client against the
 * real app (main()) and the HTTP fake of GitHub.
 */
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';
import { callTool, claimArgs, errorOf, mcpClient } from './mcp-helpers.js';

describe.concurrent('the remote MCP server at /mcp', () => {
  it('claims, heartbeats and releases an issue, the comment saying via the client', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO);
    const client = await mcpClient(appUrl, fake.tokenFor('alice'), 'test-agent');
    onTestFinished(() => client.close());
    expect(client.getServerVersion()?.name).toBe('claim-warden');

    const claimed = await callTool(client, 'issue_claim', claimArgs(n, 's-1'));
    expect(claimed.isError).toBeFalsy();
    expect(claimed.structuredContent).toMatchObject({
      alreadyHeld: false,
      claim: { author: 'alice', session: 's-1', stage: 'claimed' },
    });
    const comment = fake.comments(REPO, n).find((c) => c.user.login === 'alice');
    expect(comment?.body).toContain('Via: test-agent');

    const beat = await callTool(client, 'issue_heartbeat', {
      issue: `${REPO}#${n}`,
      session: 's-1',
      stage: 'implementing',
    });
    expect(beat.structuredContent).toMatchObject({ claim: { stage: 'implementing' } });

    const got = await callTool(client, 'issue_get', { issue: `${REPO}#${n}` });
    expect(got.structuredContent).toMatchObject({ claim: { session: 's-1' } });

    const released = await callTool(client, 'issue_release', {
      issue: `${REPO}#${n}`,
      session: 's-1',
      outcome: 'landed',
    });
    expect(released.structuredContent).toMatchObject({
      released: true,
      claim: { stage: 'released', outcome: 'landed' },
    });
    const after = await callTool(client, 'issue_get', { issue: `${REPO}#${n}` });
    expect(after.structuredContent).toMatchObject({ claim: null });
  });

  it('an explicit client argument wins, and a client name is folded to the client grammar', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const [a, b] = [fake.createIssue(REPO), fake.createIssue(REPO)];
    const client = await mcpClient(appUrl, fake.tokenFor('alice'), 'Claude Code (remote)');
    onTestFinished(() => client.close());
    await callTool(client, 'issue_claim', claimArgs(a, 's-a'));
    await callTool(client, 'issue_claim', claimArgs(b, 's-b', { client: 'my-loop' }));
    expect(fake.comments(REPO, a).find((c) => c.user.login === 'alice')?.body).toContain(
      'Via: Claude-Code-remote',
    );
    expect(fake.comments(REPO, b).find((c) => c.user.login === 'alice')?.body).toContain(
      'Via: my-loop',
    );
  });

  it('lists the work queue and checks paths through MCP', async ({ onTestFinished }) => {
    const { fake, appUrl, settle } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO, { title: 'Queue me' });
    await settle();
    const alice = await mcpClient(appUrl, fake.tokenFor('alice'));
    const bob = await mcpClient(appUrl, fake.tokenFor('bob'));
    onTestFinished(() => Promise.all([alice.close(), bob.close()]).then(() => undefined));

    const queue = await callTool(bob, 'issues_list', { claimable: true, repo: REPO });
    expect(queue.isError).toBeFalsy();
    expect(queue.structuredContent).toMatchObject({
      items: [{ issue: { number: n, title: 'Queue me' }, claim: null }],
      nextCursor: null,
    });

    const free = await callTool(bob, 'paths_check', { repo: REPO, paths: ['src/a.ts'] });
    expect(free.structuredContent).toEqual({ paths: [{ path: 'src/a.ts', available: true }] });

    await callTool(alice, 'issue_claim', claimArgs(n, 's-1', { paths: ['src/'] }));
    const held = await callTool(bob, 'paths_check', { repo: REPO, paths: ['src/a.ts'] });
    expect(held.structuredContent).toMatchObject({
      paths: [{ path: 'src/a.ts', available: false, heldPath: 'src/', isSelf: false }],
    });
    await settle();
    const mine = await callTool(alice, 'issues_list', { claimedBy: 'me' });
    expect(mine.structuredContent).toMatchObject({ items: [{ issue: { number: n } }] });
  });

  it('release_all_claims releases every claim of the session, and a bad argument is a refusal result', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const [a, b, c] = [fake.createIssue(REPO), fake.createIssue(REPO), fake.createIssue(REPO)];
    const client = await mcpClient(appUrl, fake.tokenFor('alice'));
    onTestFinished(() => client.close());
    for (const n of [a, b]) await callTool(client, 'issue_claim', claimArgs(n, 's-1'));
    await callTool(client, 'issue_claim', claimArgs(c, 's-2'));

    const released = await callTool(client, 'release_all_claims', {
      session: 's-1',
      outcome: 'landed',
    });
    expect(released.isError).toBeFalsy();
    expect(released.structuredContent).toMatchObject({
      released: [
        { issue: `${REPO}#${a}`, stage: 'released', outcome: 'landed' },
        { issue: `${REPO}#${b}`, stage: 'released', outcome: 'landed' },
      ],
      failed: [],
    });
    const kept = await callTool(client, 'issue_get', { issue: `${REPO}#${c}` });
    expect(kept.structuredContent).toMatchObject({ claim: { session: 's-2' } });
    const again = await callTool(client, 'release_all_claims', { session: 's-1' });
    expect(again.structuredContent).toEqual({ released: [], failed: [] });

    const bad = await callTool(client, 'release_all_claims', { session: 'not a session' });
    expect(bad.isError).toBe(true);
    expect(errorOf(bad)).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { session: expect.any(String) } },
    });
  });

  it('two MCP clients racing on one issue get exactly one claim; the other a refusal result', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO);
    const alice = await mcpClient(appUrl, fake.tokenFor('alice'), 'agent-a');
    const bob = await mcpClient(appUrl, fake.tokenFor('bob'), 'agent-b');
    onTestFinished(() => Promise.all([alice.close(), bob.close()]).then(() => undefined));
    const results = await Promise.all([
      callTool(alice, 'issue_claim', claimArgs(n, 's-a')),
      callTool(bob, 'issue_claim', claimArgs(n, 's-b')),
    ]);
    const won = results.filter((r) => !r.isError);
    const lost = results.filter((r) => r.isError);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = (won[0]!.structuredContent as { claim: { session: string } }).claim;
    expect(errorOf(lost[0]!)).toMatchObject({
      code: 'ISSUE_ALREADY_CLAIMED',
      details: { holder: { session: winner.session } },
    });
    const claims = fake.comments(REPO, n).filter((c) => c.body.includes('claim v=1'));
    expect(claims.filter((c) => !c.body.includes('stage=released'))).toHaveLength(1);
    expect(lost[0]!._meta).toMatchObject({ 'claim-warden/status': 409 });
  });

  it('a refusal is a tool result carrying the API error object, never a protocol error', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO);
    const mallory = await mcpClient(appUrl, fake.tokenFor('mallory'));
    onTestFinished(() => mallory.close());
    const refused = await callTool(mallory, 'issue_claim', claimArgs(n, 's-m'));
    expect(refused.isError).toBe(true);
    expect(errorOf(refused)).toMatchObject({ code: 'NOT_TRUSTED' });
    const invalid = await callTool(mallory, 'issue_claim', claimArgs(n, ' bad session'));
    expect(errorOf(invalid)).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { session: expect.any(String) } },
    });
    const badRef = await callTool(mallory, 'issue_get', { issue: 'not an issue' });
    expect(errorOf(badRef)).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { issue: expect.any(String) } },
    });
  });

  it('negotiates the newest protocol version the SDK offers', async ({ onTestFinished }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const response = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fake.tokenFor('alice')}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.text()).toContain(`"protocolVersion":"${LATEST_PROTOCOL_VERSION}"`);
  });
});

describe.concurrent('who may call /mcp', () => {
  it('no token is HTTP 401 naming the protected-resource metadata, which names GitHub', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const response = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate');
    expect(challenge).toBe(
      `Bearer resource_metadata="${appUrl}/.well-known/oauth-protected-resource"`,
    );
    const metadata = await (await fetch(`${appUrl}/.well-known/oauth-protected-resource`)).json();
    expect(metadata).toMatchObject({
      resource: `${appUrl}/mcp`,
      authorization_servers: [`http://${fake.host}/login/oauth`],
      bearer_methods_supported: ['header'],
    });
    await expect(mcpClient(appUrl, undefined)).rejects.toThrow();
  });

  it('a token GitHub refuses is HTTP 401 with invalid_token', async ({ onTestFinished }) => {
    const { appUrl } = await harnessFor(onTestFinished);
    const response = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer not-a-token',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('a page of another origin is refused (DNS rebinding), and an oversized body is 413', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const headers = {
      authorization: `Bearer ${fake.tokenFor('alice')}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const rebound = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, origin: 'http://attacker.example' },
      body,
    });
    expect(rebound.status).toBe(403);
    const big = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { pad: 'x'.repeat(300_000) },
      }),
    });
    expect(big.status).toBe(413);
    const notJson = await fetch(`${appUrl}/mcp`, { method: 'POST', headers, body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('a caller holds at most 16 sessions; ending one frees its place; another caller is not affected', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const clients = [];
    for (let i = 0; i < 16; i += 1) clients.push(await mcpClient(appUrl, fake.tokenFor('alice')));
    await expect(mcpClient(appUrl, fake.tokenFor('alice'))).rejects.toThrow(/16 MCP sessions/);
    const bob = await mcpClient(appUrl, fake.tokenFor('bob'));
    await bob.close();
    const first = clients.shift()!;
    await (first.transport as unknown as StreamableHTTPClientTransport).terminateSession();
    clients.push(await mcpClient(appUrl, fake.tokenFor('alice')));
    await Promise.all(clients.map((c) => c.close()));
  });

  it('a call outside the session the server issued is 400; an unknown session is 404', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const headers = rpcHeaders(fake.tokenFor('alice'));
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'issue_get', arguments: { issue: `${REPO}#1` } },
    };
    const without = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify(call),
    });
    expect(without.status).toBe(400);
    expect(await without.json()).toMatchObject({ error: { message: /Mcp-Session-Id/ } });
    const unknown = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
      body: JSON.stringify(call),
    });
    expect(unknown.status).toBe(404);
  });

  it('a refused [initialize, initialize] issues no session and takes no place of the cap', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const token = fake.tokenFor('alice');
    for (let i = 0; i < 17; i += 1) {
      const batch = await fetch(`${appUrl}/mcp`, {
        method: 'POST',
        headers: rpcHeaders(token),
        body: JSON.stringify([initializeMessage(1), initializeMessage(2)]),
      });
      expect(batch.status).toBe(400);
      expect(batch.headers.get('mcp-session-id')).toBeNull();
      expect(await batch.json()).toMatchObject({ error: { code: -32600 } });
    }
    const plain = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: { ...rpcHeaders(token), accept: 'application/json' },
      body: JSON.stringify(initializeMessage(1)),
    });
    expect(plain.status).toBe(406);
    expect(plain.headers.get('mcp-session-id')).toBeNull();
    const client = await mcpClient(appUrl, token);
    await client.close();
  });

  it('an empty batch is a JSON-RPC Invalid Request (400, -32600), not 202', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const empty = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: rpcHeaders(fake.tokenFor('alice')),
      body: '[]',
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
  });
});

function rpcHeaders(token: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
}

function initializeMessage(id: number) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    },
  };
}
