import { formatClaimTime } from '../../claims/marker.js';
import { sameName } from '../../claims/names.js';
import type { IssueKey } from '../../keys.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { invalidInput } from '../answers/api-error.js';
import { Paths } from '../answers/request-bodies.js';
import { holderObject } from '../answers/serialise.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { readableRepo } from '../caller/readable-repo.js';
import { configOf } from '../issue/on-issue.js';
import { pathConflicts } from './path-conflicts.js';
import { isQuiet } from './paths-claimed.js';

/**
 * `GET …/repos/{o}/{r}/paths?paths=a,b` (docs/protocol.md §10): whether each path is free,
 * without claiming anything. A path is held only by a live holder of an issue of the
 * repository, verified from that issue's thread (never from the index alone); a stale claim's
 * paths are free at once, sweep or no sweep. Same visibility as `GET …/claim`: the caller's
 * token must read the repository. When several holders meet one entry (a directory asked),
 * the oldest is named.
 */
export async function checkPaths(
  deps: ApiDeps,
  caller: Caller,
  target: { owner: string; repo: string },
  params: URLSearchParams,
): Promise<ApiAnswer> {
  const paths = parsePathsParam(params);
  const repo = await readableRepo(deps, caller, target, 'repo');
  const config = await configOf(deps, repo);
  // Issue 0 exists nowhere: no issue of the repository is left out of the check.
  const key: IssueKey = {
    installationId: repo.installationId,
    owner: repo.owner,
    repo: repo.repo,
    number: 0,
  };
  const conflicts = await pathConflicts(deps, repo, key, paths, config);
  const now = deps.now();
  const answers = paths.map((path) => {
    const held = conflicts
      .flatMap((c) =>
        c.pairs.filter(([ours]) => ours === path).map(([, theirs]) => ({ c, theirs })),
      )
      .sort((a, b) => a.c.holder.commentId - b.c.holder.commentId)[0];
    if (!held) return { path, available: true };
    const { holder, number } = held.c;
    return {
      path,
      available: false,
      heldPath: held.theirs,
      heldBy: holderObject({ ...key, number }, holder, config.staleAfterMs),
      isSelf: sameName(holder.author, caller.login),
      isStale: isQuiet(holder, config.staleAfterMs, now),
      claimedAt: formatClaimTime(holder.started),
    };
  });
  return { status: 200, body: { paths: answers } };
}

/** The `paths` query parameter: entries separated by `,`, checked as a claim's (422 otherwise). */
function parsePathsParam(params: URLSearchParams): string[] {
  const raw = params.getAll('paths');
  if (raw.length !== 1 || raw[0] === '') {
    throw invalidInput({ paths: 'one query parameter paths=a,b,dir/ naming 1..20 entries' });
  }
  const parsed = Paths.safeParse(raw[0]!.split(','));
  if (!parsed.success) {
    throw invalidInput({ paths: parsed.error.issues[0]?.message ?? 'valid path entries' });
  }
  return parsed.data;
}
