import { pathsOperation } from '../../../operations/catalogue.js';
import { refused } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import type { ClaimsApi } from '../../io/claims-api-client.js';
import { viewOfClaim } from '../replies/claim-view.js';
import { okAnswer } from './api-shape.js';
import { callOperation } from './call-operation.js';

/** A paths check: the repository and canonical entries (checkPathEntries). */
interface PathsCheckRequest {
  readonly owner: string;
  readonly repo: string;
  readonly paths: readonly string[];
}

/**
 * `paths check`: asks the app who holds these paths in a repository, without claiming
 * (`GET …/repos/{o}/{r}/paths?paths=`, docs/protocol.md §10). Ok (exit 0) when every path is
 * free or held by the caller; refused (exit 1) when another live claim holds one, so a script
 * can branch on it, naming each holder.
 */
export async function pathsCheck(
  api: ClaimsApi,
  request: PathsCheckRequest,
): Promise<CommandResult> {
  const repo = `${request.owner}/${request.repo}`;
  const reply = await callOperation(api, pathsOperation, request, {
    query: new URLSearchParams({ paths: request.paths.join(',') }),
  });
  const answers = okAnswer(
    pathsOperation.answer,
    reply,
    repo,
    'a paths answer (docs/protocol.md §10)',
  ).paths;
  const paths = answers.map((a) => ({
    path: a.path,
    available: a.available,
    ...(a.heldBy
      ? {
          ...(a.heldPath ? { heldPath: a.heldPath } : {}),
          // Only a live holder holds paths (docs/protocol.md §10): the app names no other.
          heldIn: a.heldBy.issue,
          heldBy: viewOfClaim(a.heldBy, true),
          isSelf: a.isSelf === true,
          isStale: a.isStale === true,
          ...(a.claimedAt ? { claimedAt: a.claimedAt } : {}),
        }
      : {}),
  }));
  const lines = answers.map((a) => {
    if (a.available || !a.heldBy) return `${a.path}: available`;
    const where = a.heldBy.issue ? ` in ${a.heldBy.issue}` : '';
    const whose = a.isSelf ? ' (you)' : '';
    const as = a.heldPath && a.heldPath !== a.path ? ` as ${a.heldPath}` : '';
    return `${a.path}: held${as} by @${a.heldBy.author}${whose}${where} (comment ${a.heldBy.commentId}, session ${a.heldBy.session}, claimed ${a.claimedAt ?? a.heldBy.started}, last update ${a.heldBy.heartbeat})`;
  });
  // A claim would be refused over any of these; the caller's own claims are no conflict.
  const blocked = answers.filter((a) => !a.available && !a.isSelf);
  const message = `${repo}: ${lines.join('; ')}`;
  if (blocked.length > 0) {
    throw refused(message, { repo, reason: 'paths-claimed', paths });
  }
  return ok(message, { repo, action: 'checked', paths });
}
