import { renderClaimComment } from '../src/claims/comment.js';
import { parseClaimMarker } from '../src/claims/marker.js';
import type { ClaimMarker } from '../src/claims/types.js';
import type { FakeGitHub, IssueSnapshot } from '../test/fake-github/fake-github.js';
import type { Stack } from './stack.js';
import { Timeline } from './timeline.js';

/** The repository of the story. */
export const STORY_REPO = 'acme/widgets';
export const STORY_INSTALLATION = 1;

/** The settings the story runs with: a sweep every second. */
export const STORY_ENV = {
  CLAIMS_SWEEP_INTERVAL: '1s',
} as const;

/**
 * The story repository's `.github/claims.yml`: a short stale window, in the file the app and
 * the client (in direct mode) both read, so the two agree on when a claim goes stale.
 */
const STORY_CONFIG = 'staleAfter: 10m\n';

const STALE_AFTER_MS = 10 * 60_000;
/** How long alice's claim stays live in the story: its heartbeat is this far from stale. */
const ALICE_LIVE_MS = 8_000;

/** Seeds the fake with the story's cast: one installation, two agents, a passer-by, a maintainer. */
export function seedStory(fake: FakeGitHub): void {
  fake.addInstallation({ id: STORY_INSTALLATION, account: 'acme', repos: [STORY_REPO] });
  fake.setFile(STORY_REPO, '.github/claims.yml', STORY_CONFIG);
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('bob', { association: 'COLLABORATOR' });
  fake.addUser('maria', { association: 'MEMBER' });
  fake.addUser('mallory', { association: 'NONE' });
}

/** One claim comment of the story as it ended. */
export interface StoryClaim {
  readonly id: number;
  readonly author: string;
  readonly stage: string | undefined;
  readonly outcome: string | undefined;
  /** The `- Reason:` line a finalisation wrote, if any. */
  readonly reason: string | undefined;
}

/** What the story left on GitHub, for the sandbox's check and its test. */
export interface StoryResult {
  readonly issue: IssueSnapshot;
  readonly alice: StoryClaim;
  readonly bobFirst: StoryClaim;
  readonly bobSecond: StoryClaim;
  readonly forged: StoryClaim;
  /** The app's notes on the issue (one: alice's claim went stale). */
  readonly notes: readonly string[];
  /** GitHub calls the app made because of the forged marker (docs/protocol.md §2: none). */
  readonly forgedCalls: number;
  /** Labels and assignees of the issue after each step, for the test. */
  readonly afterRace: IssueSnapshot;
  readonly afterStale: IssueSnapshot;
  readonly afterReclaim: IssueSnapshot;
}

function claimBody(session: string, at: Date, note: string): string {
  const claim: ClaimMarker = {
    session,
    lane: 'main',
    branch: `fix/widget-${session}`,
    started: at,
    updated: at,
    stage: 'claimed',
    assignee: 'claim',
  };
  return renderClaimComment(claim, { note });
}

function claimOf(fake: FakeGitHub, id: number): StoryClaim {
  const comment = fake.comment(id);
  const body = comment?.body ?? '';
  const marker = parseClaimMarker(body);
  return {
    id,
    author: comment?.user?.login ?? '',
    stage: marker?.stage,
    outcome: marker?.outcome,
    reason: /^- Reason: (.*)$/m.exec(body)?.[1],
  };
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`sandbox: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Plays the story on a stack seeded with {@link seedStory} and started with
 * {@link STORY_ENV}: two agents race for an issue, the winner goes stale and is swept, a
 * passer-by forges a marker, the loser claims again and a maintainer takes the label off.
 * Prints a timeline of what each actor did and what the app made true.
 */
export async function playStory(stack: Stack, print: (line: string) => void): Promise<StoryResult> {
  const { fake } = stack;
  const t = new Timeline(fake, print);
  const repo = STORY_REPO;

  t.note(`The app enforces claims on ${repo}; claims go stale after 10 minutes of silence,`);
  t.note('and a sweep looks for stale claims every second.');
  print('');

  const n = fake.createIssue(repo, { title: 'Widget crashes on empty input', author: 'maria' });
  t.say('maria', `opens #${n} "Widget crashes on empty input"`);
  await stack.settle();
  t.flushApp();
  print('');

  // Both claims reach GitHub before the app hears of either: a true race.
  fake.pauseWebhooks();
  const aliceAt = new Date(Date.now() - STALE_AFTER_MS + ALICE_LIVE_MS);
  const alice = fake.addComment(repo, n, {
    author: 'alice',
    body: claimBody('agent-a', aliceAt, 'taking this one'),
  });
  t.say('alice', `claims #${n} through her agent (comment ${alice.id}, session agent-a)`);
  t.note(
    `  its last heartbeat is 9m${60 - ALICE_LIVE_MS / 1000}s old: the sandbox's stand-in for a session that`,
  );
  t.note('  is about to die; it will be stale in a few seconds');
  const bob = fake.addComment(repo, n, {
    author: 'bob',
    body: claimBody('agent-b', new Date(), 'on it'),
  });
  t.say(
    'bob',
    `claims #${n} through his agent at the same moment (comment ${bob.id}, session agent-b)`,
  );
  fake.resumeWebhooks();
  await stack.settle();
  t.flushApp();
  t.state(repo, n);
  const afterRace = fake.issue(repo, n);
  print('');

  const forged = fake.addComment(repo, n, {
    author: 'mallory',
    body: claimBody('mine-now', new Date(), 'this issue is mine'),
  });
  t.say('mallory', `(a passer-by) posts a forged marker on #${n} (comment ${forged.id})`);
  t.note('  she may not claim here (no write access), so the app ignores it: no call at all');
  const before = fake.requests.length;
  await stack.settle();
  const forgedCalls = fake.requests.slice(before).filter((r) => r.actor === fake.botLogin).length;
  t.flushApp();
  print('');

  t.say('alice', 'her agent crashed: no more heartbeats…');
  await until(
    () => parseClaimMarker(fake.comment(alice.id)?.body ?? '')?.stage === 'released',
    "the sweep to finalise alice's stale claim",
  );
  await stack.settle();
  // Said when the sweep's first write reached GitHub, so the timeline does not go back.
  t.say('sweep', `finds alice's claim past its deadline and reconciles #${n}:`, t.firstAppCallAt());
  t.flushApp();
  t.state(repo, n);
  const afterStale = fake.issue(repo, n);
  print('');

  const bobAgain = fake.addComment(repo, n, {
    author: 'bob',
    body: claimBody('agent-b2', new Date(), 'the issue is free again: taking it'),
  });
  t.say('bob', `claims #${n} again (comment ${bobAgain.id}, session agent-b2)`);
  await stack.settle();
  t.flushApp();
  t.state(repo, n);
  const afterReclaim = fake.issue(repo, n);
  print('');

  fake.removeLabel(repo, n, 'status:in-progress', { actor: 'maria' });
  t.say('maria', `removes the label status:in-progress from #${n}: "we are not doing this now"`);
  await stack.settle();
  t.flushApp();
  t.state(repo, n);
  print('');

  const notes = fake
    .comments(repo, n)
    .filter((c) => c.user?.login === fake.botLogin)
    .map((c) => c.body ?? '');
  const result: StoryResult = {
    issue: fake.issue(repo, n),
    alice: claimOf(fake, alice.id),
    bobFirst: claimOf(fake, bob.id),
    bobSecond: claimOf(fake, bobAgain.id),
    forged: claimOf(fake, forged.id),
    notes,
    forgedCalls,
    afterRace,
    afterStale,
    afterReclaim,
  };
  t.note('How the claims ended:');
  for (const [who, claim] of Object.entries({
    "alice's claim": result.alice,
    "bob's first claim": result.bobFirst,
    "bob's second claim": result.bobSecond,
    "mallory's forgery": result.forged,
  })) {
    // docs/protocol.md §2: a marker by someone who may not claim is no claim; the app leaves
    // it as written (stage=claimed), which would read as if mallory held the issue.
    const ending =
      claim === result.forged
        ? `ignored: not a claim (mallory may not claim here), never held the issue; left as written`
        : claim.outcome
          ? `${claim.stage}, ${claim.outcome}`
          : `${claim.stage}`;
    t.note(
      `  ${who.padEnd(19)} comment ${claim.id}: ${ending}${claim.reason ? ` (${claim.reason})` : ''}`,
    );
  }
  return result;
}

/** What the story must end with; the problems found, none when the app did its job. */
export function checkStory(result: StoryResult): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  expect(
    result.afterRace.labels.includes('status:in-progress') &&
      result.afterRace.assignees.join() === 'alice',
    'after the race, alice holds the issue',
  );
  expect(
    result.bobFirst.outcome === 'abandoned' &&
      /lost to the older claim/.test(result.bobFirst.reason ?? ''),
    "bob's first claim lost the race",
  );
  expect(
    result.alice.outcome === 'abandoned' && /stale since/.test(result.alice.reason ?? ''),
    "alice's claim was finalised as stale",
  );
  expect(result.notes.length === 1 && result.notes[0]!.includes('@alice'), 'one note for alice');
  expect(
    result.afterStale.labels.length === 0 && result.afterStale.assignees.length === 0,
    'after the sweep, the issue is free',
  );
  expect(
    result.afterReclaim.labels.includes('status:in-progress') &&
      result.afterReclaim.assignees.join() === 'bob',
    'bob holds the issue after claiming again',
  );
  expect(result.forged.stage === 'claimed' && result.forgedCalls === 0, 'the forgery cost nothing');
  expect(
    result.bobSecond.outcome === 'abandoned' &&
      /removed the label/.test(result.bobSecond.reason ?? ''),
    "bob's second claim was released by the maintainer's removal",
  );
  expect(
    result.issue.labels.length === 0 && result.issue.assignees.length === 0,
    'at the end, no status label and nobody assigned',
  );
  return problems;
}
