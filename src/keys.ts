/**
 * The names of the things the app keeps state about, shared by `github/` and `store/` so the
 * repository shape is written once.
 */

/** One repository of one installation: the unit of checkpoints, configs and token scopes. */
export interface RepoKey {
  readonly installationId: number;
  readonly owner: string;
  readonly repo: string;
}

/** One issue of one installation: the unit the app reconciles, locks and indexes. */
export interface IssueKey extends RepoKey {
  readonly number: number;
}

/** A stable string form of a repository key: `installationId/owner/repo`. */
export function repoKeyString(key: RepoKey): string {
  return `${key.installationId}/${key.owner}/${key.repo}`;
}

/** The start of every issue key string of one repository (see issueKeyString). */
export function repoPrefix(repo: RepoKey): string {
  return `${repoKeyString(repo)}#`;
}

/** A stable string form of an issue key, used for locks, job ids and index members. */
export function issueKeyString(key: IssueKey): string {
  return `${repoKeyString(key)}#${key.number}`;
}

/** Parses the string form written by {@link issueKeyString}; null when it is not one. */
export function parseIssueKeyString(text: string): IssueKey | null {
  const match = /^(\d+)\/([^/]+)\/([^/#]+)#(\d+)$/.exec(text);
  if (!match) return null;
  return {
    installationId: Number(match[1]),
    owner: match[2]!,
    repo: match[3]!,
    number: Number(match[4]),
  };
}

/** The repository an issue belongs to (the key without its number). */
export function repoOf(key: IssueKey): RepoKey {
  return { installationId: key.installationId, owner: key.owner, repo: key.repo };
}

/** `acme/widgets#12`: an issue as people write it, for logs and error messages. */
export function issueRef(key: IssueKey): string {
  return `${key.owner}/${key.repo}#${key.number}`;
}
