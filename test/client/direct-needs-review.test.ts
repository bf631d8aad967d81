/**
 * The client in direct mode (no CLAIM_WARDEN_URL) on an issue in review (docs/protocol.md §17
 * "Never dragged back"): it reads the label and the app's expiry note itself and refuses
 * before posting, with the API mode's reason, review, hint and exit code; the stale claim's
 * own author still claims. The real app runs against the fake GitHub and sends the issue to
 * review; the client just does not speak its API.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { mcpServer } from '../../src/client/cli/mcp-server.js';
import type { ClientRuntime } from '../../src/client/io/runtime.js';
import { waitFor } from '../helpers/app-harness.js';
import { claimArgs, type Harness, issueNumber, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();
const REVIEW = 'status:needs-review';

/** A runtime of `login` that talks to GitHub itself: the app's URL left out. */
function direct(h: Harness, login: string): Partial<ClientRuntime> {
  const { CLAIM_WARDEN_URL: _api, ...env } = h.runtime(login).env;
  return { env };
}

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

describe('direct mode: a claim on an issue in review', () => {
  it('is refused (exit 1) as the API refuses it, before anything is written', async () => {
    const h = await world({ app: true });
    const { ref, head } = await inReview(h);
    const bob = direct(h, 'bob');
    const before = h.fake.writes().length;

    const text = await h.cli(claimArgs(ref, 'other'), { login: 'bob', runtime: bob });
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    const message = `${ref} needs review (a stale session left 3 commits on feat/s-old (${head})); nothing was written: ask a maintainer to review the work on feat/s-old, or claim another issue.`;
    expect(text.stderr.trimEnd()).toBe(`claim-warden: ${message}`);

    const json = await h.cli([...claimArgs(ref, 'other'), '--json'], {
      login: 'bob',
      runtime: bob,
    });
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
      { login: 'bob', runtime: bob },
    );
    expect(result).toMatchObject({
      status: 'refused',
      data: { reason: 'needs-review', review: { branch: 'feat/s-old', aheadBy: 3, head } },
    });
    // Three refusals, and not one write on GitHub for them: no comment to finalise later.
    expect(h.fake.writes().slice(before)).toEqual([]);
  });

  it('through the stdio tool: an error result with the reason, the review and the hint', async () => {
    const h = await world({ app: true });
    const { ref, head } = await inReview(h, 1);
    const server = mcpServer({ runtime: h.runtime('bob', direct(h, 'bob')), version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const bob = new Client({ name: 'direct-review-test', version: '1' });
    await bob.connect(clientSide);
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
  });

  it('the stale claim’s own author comes back: claimed (exit 0), and the label goes', async () => {
    const h = await world({ app: true });
    const { ref } = await inReview(h);
    const back = await h.cli(claimArgs(ref, 'unit7'), {
      login: 'alice',
      runtime: direct(h, 'alice'),
    });
    expect(back.code).toBe(0);
    await waitFor(
      () => !h.fake.issue(REPO, issueNumber(ref)).labels.includes(REVIEW),
      'the review label removed',
    );
    await h.app!.settle();
    // The app let the claim stand: the session still holds it and may report progress.
    const status = await h.run(
      'status',
      { issue: ref, session: 'unit7', stage: 'implementing' },
      { runtime: direct(h, 'alice') },
    );
    expect(status.status).toBe('ok');
  });

  it('with the label added by hand: review null, and every login is refused', async () => {
    const h = await world();
    const ref = h.issue();
    // A person copying the app's note admits nobody: only a bot's note about a claim counts.
    const stale = h.seedClaim(ref, { author: 'alice', session: 's-old', ageMinutes: 420 });
    h.fake.addComment(REPO, issueNumber(ref), {
      author: 'bob',
      body: `<!-- claim-warden note=expired comment=${stale} -->\n<!-- claim-warden review author=alice branch=feat/x ahead=2 head=1a2b3c4 pull=none -->\nalice may come back`,
    });
    h.fake.addLabels(REPO, issueNumber(ref), [REVIEW], { actor: 'maria' });
    for (const login of ['alice', 'bob']) {
      const json = await h.cli([...claimArgs(ref, `s-${login}`), '--json'], { login });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        status: 'refused',
        reason: 'needs-review',
        review: null,
        message: `${ref} needs review (a maintainer marked it); nothing was written: ask a maintainer to review it and remove the needs-review label, or claim another issue.`,
      });
    }
  });

  it('names the label the repository configures (labels.needsReview)', async () => {
    const h = await world({ claimsYml: 'labels:\n  needsReview: triage:review\n' });
    const ref = h.issue();
    h.fake.addLabels(REPO, issueNumber(ref), [REVIEW], { actor: 'maria' });
    // The default name is only a label here: the claim goes on.
    expect((await h.cli(claimArgs(ref, 'first'), { login: 'alice' })).code).toBe(0);
    const other = h.issue();
    h.fake.addLabels(REPO, issueNumber(other), ['triage:review'], { actor: 'maria' });
    const json = await h.cli([...claimArgs(other, 'second'), '--json'], { login: 'alice' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ reason: 'needs-review', review: null });
  });

  it('without the label: claims as before', async () => {
    const h = await world();
    const ref = h.issue();
    h.seedClaim(ref, { author: 'alice', session: 's-old', ageMinutes: 420 });
    const json = await h.cli([...claimArgs(ref, 'other'), '--json'], { login: 'bob' });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'ok' });
  });
});
