/**
 * `claim-warden release --all` and the stdio tool `release_all_claims` (docs/protocol.md §17):
 * everything a session holds, released through the app's API (`CLAIM_WARDEN_URL`); without
 * the app the client refuses, naming CLAIM_WARDEN_URL, and asks nobody.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { mcpServer } from '../../src/client/cli/mcp-server.js';
import { claimArgs, type Harness, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

/** The stdio MCP server of `login` on this machine, connected in memory. */
async function connect(h: Harness, login: string): Promise<Client> {
  const server = mcpServer({ runtime: h.runtime(login), version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'release-all-test', version: '1' });
  await client.connect(clientSide);
  return client;
}

/** Alice's session unit7 holds two issues, her session other a third. */
async function heldWorld() {
  const h = await world({ app: true });
  const [a, b, c] = [h.issue(), h.issue(), h.issue()];
  for (const ref of [a, b]) expect((await h.cli(claimArgs(ref, 'unit7'))).code).toBe(0);
  expect((await h.cli(claimArgs(c, 'other'))).code).toBe(0);
  await h.app!.settle();
  return { h, a, b, c };
}

const commentOf = (h: Harness, ref: string) =>
  h.fake.comments(REPO, issueNumber(ref)).find((c) => c.user.login === 'alice')!;

describe('claim-warden release --all', () => {
  it('releases every claim of the session through the app, then finds nothing left (exit 0)', async () => {
    const { h, a, b, c } = await heldWorld();
    const text = await h.cli(['release', '--all', '--session', 'unit7', '--note', 'done']);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^released ${a} \\(abandoned\\): comment \\d+ by @alice`)),
      expect.stringMatching(new RegExp(`^released ${b} \\(abandoned\\): comment \\d+ by @alice`)),
    ]);
    for (const ref of [a, b]) {
      expect(h.marker(commentOf(h, ref).id)).toMatchObject({
        stage: 'released',
        outcome: 'abandoned',
      });
      expect(h.fake.issue(REPO, issueNumber(ref))).toMatchObject({ labels: [], assignees: [] });
    }
    expect(h.marker(commentOf(h, c).id)).toMatchObject({ stage: 'claimed' });
    // Through the app's route, with the session's tag, never its private name.
    const again = await h.cli(['release', '--all', '--session', 'unit7', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      status: 'ok',
      action: 'released-all',
      released: [],
      failed: [],
      message: 'the session holds no live claim: nothing to release',
    });
    expect(JSON.stringify(h.fake.comments(REPO, issueNumber(a)))).not.toContain('unit7');
  });

  it('--outcome and --json: each released claim with its issue', async () => {
    const { h, a, b } = await heldWorld();
    const { code, stdout } = await h.cli([
      'release',
      '--all',
      '--session',
      'unit7',
      '--outcome',
      'landed',
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.released).toEqual([
      { issue: a, claim: expect.objectContaining({ outcome: 'landed', live: false }) },
      { issue: b, claim: expect.objectContaining({ outcome: 'landed', live: false }) },
    ]);
    expect(json.released[0].claim.session).toBe(h.tag('session', 'unit7'));
  });

  it('an issue the app cannot verify is listed, the others released, and the result unverifiable (exit 3)', async () => {
    const { h, a, b } = await heldWorld();
    h.fake.inject({
      method: 'GET',
      path: `/repos/${REPO}/issues/${issueNumber(b)}/comments`,
      status: 502,
      times: Infinity,
    });
    // The app's GitHub client retries a 502 three times (1, 4, 9 s) before it answers 503: the
    // client's own deadline (45 s outside tests) outlasts that.
    const { code, stderr } = await h.cli(['release', '--all', '--session', 'unit7'], {
      runtime: { deadlineMs: 45_000 },
    });
    h.fake.clearInjections();
    expect(code).toBe(3);
    expect(stderr).toContain(`released ${a} (abandoned)`);
    expect(stderr).toContain(`not released ${b}: UNVERIFIABLE`);
    expect(stderr).toContain('run release --all again');
    expect(h.marker(commentOf(h, b).id)).toMatchObject({ stage: 'claimed' });
  });

  it.each([
    [['release', '--all', 'acme/widgets#1', '--session', 's'], 'no issue reference with --all'],
    [['release', '--all'], 'missing --session'],
    [['release', '--all', '--session', 's', '--outcome', 'done'], '--outcome must be landed'],
    [['release-all', '--session', 's'], 'unknown command'],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const h = await world({ app: true });
    const { code, stderr } = await h.cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('without CLAIM_WARDEN_URL it refuses, naming it (exit 2), and asks nobody', async () => {
    const h = await world();
    const { code, stderr } = await h.cli(['release', '--all', '--session', 'unit7']);
    expect(code).toBe(2);
    expect(stderr).toContain('release --all needs the claims app: set CLAIM_WARDEN_URL');
    const client = await connect(h, 'alice');
    const result = await client.callTool({
      name: 'release_all_claims',
      arguments: { session: 'unit7' },
    });
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: 'usage',
      exitCode: 2,
      message: expect.stringContaining('CLAIM_WARDEN_URL'),
    });
    expect(h.fake.requests).toEqual([]);
  });
});

describe('the stdio tool release_all_claims', () => {
  it('releases the session’s claims through the app, as the CLI does', async () => {
    const { h, a, b, c } = await heldWorld();
    const client = await connect(h, 'alice');
    const result = await client.callTool({
      name: 'release_all_claims',
      arguments: { session: 'unit7', outcome: 'handed-over' },
    });
    await client.close();
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      exitCode: 0,
      released: [{ issue: a }, { issue: b }],
      failed: [],
    });
    expect(h.marker(commentOf(h, a).id)).toMatchObject({ outcome: 'handed-over' });
    expect(h.marker(commentOf(h, c).id)).toMatchObject({ stage: 'claimed' });
  });
});
