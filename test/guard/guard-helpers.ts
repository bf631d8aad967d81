import { renderClaimComment } from '../../src/claims/comment.js';
import type { ClaimMarker } from '../../src/claims/types.js';
import type { CheckRunRecord, FakeGitHub } from '../fake-github/fake-github.js';
import { REPO } from '../helpers/app-harness.js';

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
