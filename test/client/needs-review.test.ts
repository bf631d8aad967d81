/**
 * The client on an issue in review (docs/protocol.md §17 "Never dragged back"), through the
 * real app and fake GitHub: the API's 409 NEEDS_REVIEW is a refusal (exit 1) naming the stale
 * session's work and what to do next, in the CLI's text and JSON, the command's result and
 * the stdio MCP tool's answer alike.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { mcpServer } from '../../src/client/cli/mcp-server.js';
import { waitFor } from '../helpers/app-harness.js';
import { claimArgs, type Harness, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();
const REVIEW = 'status:needs-review';

/** An issue whose stale claim by alice left `ahead` commits on feat/s-old: in review. */
async function inReview(h: Harness, ahead = 3) {
  const head = h.fake.createBranch(REPO, 'feat/s-old', { ahead });
  const ref = h.issue();
  h.seedClaim(ref, { author: 'alice', session: 's-old', branch: 'feat/s-old', ageMinutes: 420 });
  await waitFor(
    () => h.fake.issue(REPO, issueNumber(ref)).labels.includes(REVIEW),
    'the review label',
  );
  await h.app!.settle();
  return { ref, head: head.slice(0, 7) };
}

/** The stdio MCP server of `login` on this machine, connected in memory. */
async function connect(h: Harness, login: string): Promise<Client> {
  const server = mcpServer({ runtime: h.runtime(login), version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'needs-review-test', version: '1' });
  await client.connect(clientSide);
  return client;
}

describe('a claim on an issue in review', () => {
  it('is refused (exit 1) naming the work and the next step; nothing is written', async () => {
    const h = await world({ app: true });
    const { ref, head } = await inReview(h);
    const before = h.fake.writes().length;

    const text = await h.cli(claimArgs(ref, 'other'), { login: 'bob' });
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    const message = `${ref} needs review (a stale session left 3 commits on feat/s-old (${head})); nothing was written: ask a maintainer to review the work on feat/s-old, or claim another issue.`;
    expect(text.stderr.trimEnd()).toBe(`claim-warden: ${message}`);

    const json = await h.cli([...claimArgs(ref, 'other'), '--json'], { login: 'bob' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      status: 'refused',
      exitCode: 1,
      message,
      issue: ref,
      reason: 'needs-review',
      review: { branch: 'feat/s-old', aheadBy: 3, head, pull: null },
      hint: 'ask a maintainer to review the work on feat/s-old, or claim another issue',
    });

    const result = await h.run(
      'claim',
      { issue: ref, session: 'other', lane: 'lane-b', branch: 'feat/y' },
      { login: 'bob' },
    );
    expect(result).toMatchObject({
      status: 'refused',
      data: { reason: 'needs-review', review: { branch: 'feat/s-old', aheadBy: 3, head } },
    });
    // Three refusals, and not one write on GitHub for them.
    expect(h.fake.writes().slice(before)).toEqual([]);
  });

  it('through the stdio tool: an error result with the reason, the review and the hint', async () => {
    const h = await world({ app: true });
    const { ref, head } = await inReview(h, 1);
    const bob = await connect(h, 'bob');
    const answer = await bob.callTool({
      name: 'issue_claim',
      arguments: { issue: ref, session: 'other', lane: 'lane-b', branch: 'feat/y' },
    });
    await bob.close();
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      status: 'refused',
      exitCode: 1,
      reason: 'needs-review',
      review: { branch: 'feat/s-old', aheadBy: 1, head, pull: null },
      hint: 'ask a maintainer to review the work on feat/s-old, or claim another issue',
    });
    expect((answer.structuredContent as { message: string }).message).toContain(
      'a stale session left 1 commit on feat/s-old',
    );
  });

  it('with the label added by hand: review null, and the hint still says what to do', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    h.fake.addLabels(REPO, issueNumber(ref), [REVIEW], { actor: 'maria' });
    await h.app!.settle();
    const json = await h.cli([...claimArgs(ref, 'other'), '--json'], { login: 'bob' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'refused',
      reason: 'needs-review',
      review: null,
      message: `${ref} needs review (a maintainer marked it); nothing was written: ask a maintainer to review it and remove the needs-review label, or claim another issue.`,
    });
  });

  it('the stale claim’s own author comes back: claimed (exit 0)', async () => {
    const h = await world({ app: true });
    const { ref } = await inReview(h);
    const back = await h.cli(claimArgs(ref, 'unit7'), { login: 'alice' });
    expect(back.code).toBe(0);
  });
});
