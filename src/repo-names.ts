// GitHub's grammar of the names every door reads (the API's paths and queries, the MCP tools,
// the CLI, the Action's GITHUB_REPOSITORY), written once so that a name one door takes, every
// door takes. An owner is a login: 1 to 39 letters, digits, `-` or `_` (managed users' logins
// end `_<shortcode>`), starting with a letter or digit. A repository name is 1 to 100 letters,
// digits, `.`, `_` or `-`, but not `.` or `..`. An issue number is a positive decimal without
// leading zeros (`#0` and `#007` name no issue).

const OWNER = '[A-Za-z0-9][A-Za-z0-9_-]{0,38}';
const REPO = '(?!\\.\\.?(?:$|#))[A-Za-z0-9._-]{1,100}';
const NUMBER = '[1-9][0-9]{0,15}';

const OWNER_ONLY = new RegExp(`^${OWNER}$`);
const REPO_ONLY = new RegExp(`^${REPO}$`);
const REPO_NAME = new RegExp(`^(${OWNER})/(${REPO})$`);
const ISSUE_NAME = new RegExp(`^(${OWNER})/(${REPO})#(${NUMBER})$`);

/** A repository as GitHub names it: `owner/repo`. */
interface RepoName {
  readonly owner: string;
  readonly repo: string;
}

/** An issue as people write it: `owner/repo#number`. */
export interface IssueName extends RepoName {
  readonly number: number;
}

/** Whether `owner` and `repo` (already decoded) can name a repository. */
export function isRepoName(owner: string, repo: string): boolean {
  return OWNER_ONLY.test(owner) && REPO_ONLY.test(repo);
}

/** Reads `owner/repo`; null for text that names no repository. */
export function parseRepoName(text: string): RepoName | null {
  const match = REPO_NAME.exec(text);
  return match ? { owner: match[1]!, repo: match[2]! } : null;
}

/** Reads `owner/repo#number`; null for text that names no issue. */
export function parseIssueName(text: string): IssueName | null {
  const match = ISSUE_NAME.exec(text);
  const number = Number(match?.[3]);
  if (!match || !Number.isSafeInteger(number)) return null;
  return { owner: match[1]!, repo: match[2]!, number };
}

/** The issue as people write it: `acme/widgets#7`. */
export function formatIssueName(name: IssueName): string {
  return `${name.owner}/${name.repo}#${name.number}`;
}
