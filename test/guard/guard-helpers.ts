import { renderClaimComment } from '../../src/claims/comment.js';
import type { ClaimMarker } from '../../src/claims/types.js';
import type { CheckRunRecord, FakeGitHub } from '../fake-github/fake-github.js';
import { type Harness, REPO } from '../helpers/app-harness.js';

/**
 * A claim comment by `session` on branch `feat/<session>` whose path line names `paths`:
 * started and updated `at` (default now).
 */
export function pathClaim(
  session: string,
  paths: readonly string[] | null,
  options: Partial<Pick<ClaimMarker, 'stage' | 'branch'>> & { at?: Date } = {},
): string {
  const at = options.at ?? new Date();
  const marker: ClaimMarker = {
    session,
    lane: 'lane-1',
    branch: options.branch ?? `feat/${session}`,
    started: at,
    updated: at,
    stage: options.stage ?? 'implementing',
    assignee: 'claim',
  };
  return paths === null ? renderClaimComment(marker) : renderClaimComment(marker, { paths });
}

/** The app's one check run named `name` on the pull request's head (throws when not one). */
export function checkOf(
  fake: FakeGitHub,
  pull: number,
  name = 'claim-warden/paths',
): CheckRunRecord {
  const runs = fake
    .checkRuns(REPO, fake.pullRecord(REPO, pull).head.sha)
    .filter((run) => run.name === name);
  if (runs.length !== 1) throw new Error(`expected one ${name} run, found ${runs.length}`);
  return runs[0]!;
}

/** Requests to GitHub other than minting tokens, as `METHOD path`. */
export function apiCalls(fake: FakeGitHub): string[] {
  return fake.requests
    .filter((r) => !r.path.startsWith('/app/'))
    .map((r) => `${r.method} ${r.path}`);
}

/** Whole seconds, as markers and push deliveries carry time. */
export const seconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

/** Seeds `.github/claims.yml` before the app starts (it caches the config it reads). */
export const seedConfig = (text: string) => (fake: FakeGitHub) =>
  fake.setFile(REPO, '.github/claims.yml', text);

/** Bob opens a pull request from `feat/bob` changing `files`; resolves once the app settled. */
export async function bobsPull(harness: Harness, files: readonly string[]): Promise<number> {
  const pull = harness.fake.openPullRequest(REPO, { head: 'feat/bob', author: 'bob', files });
  await harness.settle();
  return pull;
}

/** How many times comment `commentId` was edited (PATCH requests to it). */
export const edits = (fake: FakeGitHub, commentId: number) =>
  fake.count('PATCH', `/repos/${REPO}/issues/comments/${commentId}`);

/** Every check run on the pull request's head commit, whoever set it. */
export function headRuns(fake: FakeGitHub, pull: number): CheckRunRecord[] {
  return fake.checkRuns(REPO, fake.pullRecord(REPO, pull).head.sha);
}
