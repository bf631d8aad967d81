import type { DecideConfig } from '../../claims/decide-config.js';
import { installationReads } from '../../github/conditional.js';
import { UnverifiableError } from '../../github/errors.js';
import { readThread } from '../../github/thread.js';
import type { IssueKey } from '../../keys.js';
import {
  liveHoldersOverlapping,
  type PathConflict,
} from '../../path-holders/live-holders-overlapping.js';
import type { ApiDeps } from '../caller/api-deps.js';
import { githubFailure } from '../caller/caller-github.js';
import type { InstalledRepo } from '../caller/repo-access.js';

/**
 * The live holders of other issues of `repo` whose paths overlap `paths` (canonical), each
 * verified from its own thread with the app's installation token (docs/protocol.md §10: never
 * on partial facts). `key` is the issue asking, left out; paths touching nobody in the index
 * cost no GitHub call. A thread that cannot be read is 503 UNVERIFIABLE: a path is never
 * reported as held or as free on a guess (§8).
 */
export async function pathConflicts(
  deps: ApiDeps,
  repo: InstalledRepo,
  key: IssueKey,
  paths: readonly string[],
  config: DecideConfig,
): Promise<PathConflict[]> {
  const now = deps.now();
  const reads = installationReads(deps.store, key.installationId);
  try {
    return await liveHoldersOverlapping(
      {
        store: deps.store,
        appLogin: deps.appLogin,
        readThread: (other) => readThread(repo.octokit, other, reads),
      },
      key,
      paths,
      config,
      now,
    );
  } catch (error) {
    if (!(error instanceof UnverifiableError)) throw error;
    deps.log.warn(
      { repo: `${key.owner}/${key.repo}`, other: error.key.number, status: error.status },
      'claims API: a path holder could not be verified',
    );
    throw githubFailure(
      error.cause ?? error,
      `could not verify who holds these paths in ${key.owner}/${key.repo}`,
      now.getTime(),
    );
  }
}
