import { usageError } from './client-error.js';

/** One issue named by the client's commands: `<owner>/<repo>#<number>`. */
export interface IssueRef {
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
}

// GitHub's own shapes: an owner is a login (letters, digits, inner hyphens, at most 39), a
// repository name is letters, digits, `.`, `_` and `-`. The number is written without
// leading zeros and is never 0 (docs/agents.md, "The dispatch gate": `#0` and `#007` are refused).
const OWNER = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?';
const REPO = '[A-Za-z0-9._-]{1,100}';
const REF = new RegExp(`^(${OWNER})/(${REPO})#([1-9][0-9]{0,15})$`);
const REPO_ONLY = new RegExp(`^(${OWNER})/(${REPO})$`);

/**
 * Reads an issue reference `<owner>/<repo>#<number>`. A reference without an owner, with a
 * number that is not a positive decimal without leading zeros, or with anything around it,
 * is a usage error: the repository can differ from the working directory, so it is never
 * guessed.
 */
export function parseIssueRef(text: string): IssueRef {
  const match = REF.exec(text);
  const number = match ? Number(match[3]) : Number.NaN;
  if (!match || !Number.isSafeInteger(number) || match[2] === '.' || match[2] === '..') {
    throw usageError(
      `${JSON.stringify(text)} is not an issue reference: write <owner>/<repo>#<number>, such as acme/widgets#7`,
    );
  }
  return { owner: match[1]!, repo: match[2]!, number };
}

/** Reads a repository name `<owner>/<repo>` (migrate's `--repo`). */
export function parseRepoName(text: string): { owner: string; repo: string } {
  const match = REPO_ONLY.exec(text);
  if (!match || match[2] === '.' || match[2] === '..') {
    throw usageError(
      `${JSON.stringify(text)} is not a repository: write <owner>/<repo>, such as acme/widgets`,
    );
  }
  return { owner: match[1]!, repo: match[2]! };
}

/** The reference as people write it: `acme/widgets#7`. */
export function formatIssueRef(ref: IssueRef): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`;
}
