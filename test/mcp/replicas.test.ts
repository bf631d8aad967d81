/**
 * Stateless across replicas: three replicas on one Redis answer one MCP client in
 * turn; its session (and so its client name) lives in the shared store, not in a replica.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, REPO, startCluster } from '../replicas/harness.js';
import { claimArgs } from './mcp-helpers.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('three replicas on one Redis', () => {
  it('answer one MCP client in turn: claim, heartbeat and release land on different replicas', async () => {
    cluster = await startCluster({ replicas: 3 });
    const { fake, replicas } = cluster;
    const n = fake.createIssue(REPO);
    const answeredBy: string[] = [];
    let turn = 0;
    // Each HTTP request of the client goes to the next replica, as a round-robin balancer sends it.
    const roundRobin: typeof fetch = (input, init) => {
      const replica = replicas[turn++ % replicas.length]!;
      answeredBy.push(replica.name);
      const url = new URL(String(input instanceof Request ? input.url : input));
      return fetch(`${replica.url}${url.pathname}${url.search}`, init);
    };
    const client = new Client({ name: 'round-robin-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${replicas[0]!.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${fake.tokenFor('alice')}` } },
        fetch: roundRobin,
      }),
    );
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    const claimed = await call('issue_claim', claimArgs(n, 's-1'));
    expect(claimed.isError).toBeFalsy();
    const beat = await call('issue_heartbeat', {
      issue: `${REPO}#${n}`,
      session: 's-1',
      stage: 'review',
    });
    expect(beat.structuredContent).toMatchObject({ claim: { stage: 'review' } });
    const released = await call('issue_release', {
      issue: `${REPO}#${n}`,
      session: 's-1',
      outcome: 'landed',
    });
    expect(released.structuredContent).toMatchObject({ released: true });
    await client.close();

    expect(new Set(answeredBy)).toEqual(new Set(replicas.map((r) => r.name)));
    // The session opened on one replica named the client on the replica that made the claim.
    expect(fake.comments(REPO, n).find((c) => c.user.login === 'alice')?.body).toContain(
      'Via: round-robin-agent',
    );
  });
});
