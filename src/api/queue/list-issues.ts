import type { QueueSettings } from '../../config/repo-config.js';
import { claimableSettings } from '../../read-model/queue-settings.js';
import { parseRepoName } from '../../repo-names.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { invalidInput, unverifiable } from '../answers/api-error.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { forEachBounded } from './for-each-bounded.js';
import { type IssueQuery, type QueueCursor, queryIssues } from './query-issues.js';

const PARAMS = new Set([
  'claimable',
  'needsReview',
  'claimedBy',
  'assignedToMe',
  'repo',
  'label',
  'limit',
  'cursor',
]);
/** How many repositories' visibility the queue checks at once with the caller's token. */
const VISIBILITY_CHECKS_AT_ONCE = 8;

const LOGIN = /^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}(?:\[bot\])?$/i;

/**
 * `GET /api/claims/v1/issues` (docs/protocol.md §9), answered from the index: only
 * repositories of the app's installations that the caller's token can read (checked with
 * that token, cached, at most VISIBILITY_CHECKS_AT_ONCE at a time), and no other GitHub call for repositories whose claims.yml the app
 * read within QUEUE_SETTINGS_TTL_MS (their queue settings are kept in the store).
 */
export async function listIssues(
  deps: ApiDeps,
  caller: Caller,
  params: URLSearchParams,
): Promise<ApiAnswer> {
  const query = parseQuery(params, caller.login);
  const entries = await deps.store.openIssues();
  const repos = new Map<string, { installationId: number; owner: string; repo: string }>();
  for (const { issue } of entries) {
    const name = `${issue.key.owner}/${issue.key.repo}`;
    if (query.repo !== undefined && name.toLowerCase() !== query.repo.toLowerCase()) continue;
    repos.set(name, issue.key);
  }
  const visible = new Set<string>();
  const settings = new Map<string, QueueSettings | null>();
  // docs/protocol.md §9: one visibility check per repository, a few at a time.
  await forEachBounded([...repos], VISIBILITY_CHECKS_AT_ONCE, async ([name, where]) => {
    if (!(await deps.access.canRead(caller, name))) return;
    visible.add(name);
    if (query.claimable !== true && query.needsReview === undefined) return;
    // As the app's last read of claims.yml found it; read now only when none is kept.
    let claimable = await deps.store.queueSettings(where);
    if (claimable === undefined) {
      const octokit = await deps.octokitFor(where.installationId);
      claimable = claimableSettings(await deps.config(octokit, where));
    }
    if (claimable === undefined) throw unverifiable(`the config of ${name} could not be read`);
    settings.set(name, claimable);
  });
  const page = queryIssues(entries, query, {
    now: deps.now(),
    visible: (repo) => visible.has(repo),
    settings: (repo) => settings.get(repo) ?? null,
  });
  return {
    status: 200,
    body: { items: page.items, nextCursor: page.next ? encodeCursor(page.next) : null },
  };
}

/** The query string as an {@link IssueQuery}; 422 naming every bad parameter. */
function parseQuery(params: URLSearchParams, me: string): IssueQuery {
  // Null prototype: a parameter named `__proto__` is named, not lost (see parseBody).
  const fields: Record<string, string> = Object.create(null);
  for (const name of new Set(params.keys())) {
    if (!PARAMS.has(name)) fields[name] = `absent: not a filter (use ${[...PARAMS].join(', ')})`;
    else if (params.getAll(name).length > 1) fields[name] = 'given once';
  }
  const get = (name: string) => params.get(name) ?? undefined;
  const bool = (name: string, allowed: readonly string[]) => {
    const value = get(name);
    if (value === undefined) return undefined;
    if (!allowed.includes(value)) fields[name] = allowed.join(' or ');
    return value === 'true';
  };
  const claimable = bool('claimable', ['true', 'false']);
  const needsReview = bool('needsReview', ['true', 'false']);
  const assignedToMe = bool('assignedToMe', ['true']);
  const claimedBy = get('claimedBy');
  if (claimedBy !== undefined && claimedBy !== 'me' && !LOGIN.test(claimedBy)) {
    fields.claimedBy = 'me or a GitHub login';
  }
  const repo = get('repo');
  if (repo !== undefined && parseRepoName(repo) === null) fields.repo = 'owner/name';
  const label = get('label');
  if (label !== undefined && (label === '' || [...label].length > 50)) {
    fields.label = 'a label name of 1 to 50 characters';
  }
  const limitText = get('limit');
  const limit = limitText === undefined ? 50 : Number(limitText);
  if (
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > 100 ||
    (limitText !== undefined && !/^\d+$/.test(limitText))
  ) {
    fields.limit = 'a whole number from 1 to 100 (default 50)';
  }
  const cursorText = get('cursor');
  const after = cursorText === undefined ? undefined : decodeCursor(cursorText);
  if (after === null) fields.cursor = 'the nextCursor of a previous page, unchanged';
  if (Object.keys(fields).length > 0) throw invalidInput(fields);
  return {
    limit,
    ...(claimable === undefined ? {} : { claimable }),
    ...(needsReview === undefined ? {} : { needsReview }),
    ...(claimedBy === undefined ? {} : { claimedBy: claimedBy === 'me' ? me : claimedBy }),
    ...(assignedToMe ? { assignedTo: me } : {}),
    ...(repo === undefined ? {} : { repo }),
    ...(label === undefined ? {} : { label }),
    ...(after ? { after } : {}),
  };
}

/** An opaque cursor: the last item's sort key, base64url JSON. */
function encodeCursor(cursor: QueueCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): QueueCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      Number.isInteger(value[2])
    ) {
      return [value[0], value[1], value[2]];
    }
  } catch {
    // Falls through: not a cursor this server wrote.
  }
  return null;
}
