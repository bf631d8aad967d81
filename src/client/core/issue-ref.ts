import { type IssueName, parseIssueName, parseRepoName as readRepoName } from '../../repo-names.js';
import { usageError } from './client-error.js';

/** One issue named by the client's commands: `<owner>/<repo>#<number>`. */
export type IssueRef = IssueName;

/**
 * Reads an issue reference `<owner>/<repo>#<number>`. A reference without an owner, with a
 * number that is not a positive decimal without leading zeros, or with anything around it,
 * is a usage error: the repository can differ from the working directory, so it is never
 * guessed.
 */
export function parseIssueRef(text: string): IssueRef {
  // docs/agents.md, "The dispatch gate": `#0` and `#007` are refused.
  const ref = parseIssueName(text);
  if (ref === null) {
    throw usageError(
      `${JSON.stringify(text)} is not an issue reference: write <owner>/<repo>#<number>, such as acme/widgets#7`,
    );
  }
  return ref;
}

/** Reads a repository name `<owner>/<repo>` (migrate's `--repo`). */
export function parseRepoName(text: string): { owner: string; repo: string } {
  const name = readRepoName(text);
  if (name === null) {
    throw usageError(
      `${JSON.stringify(text)} is not a repository: write <owner>/<repo>, such as acme/widgets`,
    );
  }
  return name;
}

/** The reference as people write it: `acme/widgets#7`. */
export function formatIssueRef(ref: IssueRef): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`;
}
