import type { AgentHolder } from '../claims/decide.js';
import { markdownCode } from '../claims/markdown-code.js';
import { pathCovers } from '../claims/paths.js';
import type { PullHead } from '../claims/types.js';
import type { PathGuard } from '../config/repo-config.js';
import type { CheckOutcome } from '../github/check-run.js';

/** The name of the pull-request check run (docs/protocol.md §11). */
export const PATHS_CHECK_NAME = 'claim-warden/paths';

/** At most this many rows in the check's table; the rest are counted (GitHub caps output). */
export const MAX_TABLE_ROWS = 50;

/** A live holder of an issue of the repository, verified from its own thread. */
export interface VerifiedHolder {
  /** The issue as people write it: `acme/widgets#5`. */
  readonly issue: string;
  readonly number: number;
  /** Its `started` is the marker's: the claim's age is counted from it. */
  readonly holder: AgentHolder;
}

/** A changed file in a path another claim holds. */
interface HeldFile {
  readonly file: string;
  /** The holder's entry that covers it. */
  readonly entry: string;
  readonly by: VerifiedHolder;
}

/** The pull request's verdict and the holders its files ran into. */
interface PullVerdict {
  readonly outcome: CheckOutcome;
  /** The holders whose paths flagged the pull request (each once), to re-check it later. */
  readonly flaggedBy: readonly VerifiedHolder[];
}

/**
 * The `claim-warden/paths` verdict on a pull request (docs/protocol.md §11). Pure: the changed
 * files, the live holders of the repository and the clock in. A file lies in a held path when
 * a holder's entry names it or a directory above it; a holder whose `branch` is the pull
 * request's head branch (same repository) is the pull request's own claim, so its paths are
 * no conflict and the check says whose work it is. Conflicts conclude `failure` with
 * `pathGuard: fail` and `neutral` with `warn`; none, `success`, also in a repository where no
 * path is claimed (`unclaimed`), so a required `claim-warden/paths` check never waits.
 */
export function pullCheck(input: {
  readonly files: readonly string[];
  readonly holders: readonly VerifiedHolder[];
  readonly head: PullHead;
  readonly pathGuard: Exclude<PathGuard, 'off'>;
  /** Whether GitHub listed fewer files than the pull request changes (its 3,000 cap). */
  readonly truncated?: boolean;
  /**
   * Whether the indexes named no path holder in the repository and no holder of the head
   * branch: the files were not read, as none can lie in a held path, and the check says why.
   */
  readonly unclaimed?: boolean;
  readonly now: Date;
}): PullVerdict {
  const own = input.holders.filter((h) => isOwnWork(h, input.head));
  const others = input.holders.filter((h) => !isOwnWork(h, input.head));
  const held: HeldFile[] = [];
  for (const file of input.files) {
    for (const by of others) {
      const entry = by.holder.paths.find((e) => pathCovers(e, file));
      if (entry !== undefined) held.push({ file, entry, by });
    }
  }
  const flaggedBy = [...new Map(held.map((h) => [h.by.issue, h.by])).values()];
  const lines: string[] = [];
  for (const h of own) {
    lines.push(
      `This pull request is the work of ${h.issue}: its head branch ${markdownCode(input.head.ref)} is the branch of the claim of ${markdownCode(h.holder.author)} (session ${markdownCode(h.holder.session)}).`,
      '',
    );
  }
  if (input.truncated) {
    lines.push(
      `GitHub lists only the first ${input.files.length} changed files of a pull request; files past them were not checked.`,
      '',
    );
  }
  if (held.length === 0) {
    lines.push(
      input.unclaimed
        ? 'No path is claimed in this repository, so no changed file lies in a held path.'
        : 'No changed file lies in a path held by another live claim.',
    );
    const title = own.length > 0 ? `The work of ${own[0]!.issue}` : 'No held paths touched';
    return {
      outcome: { conclusion: 'success', title, summary: lines.join('\n') },
      flaggedBy,
    };
  }
  const files = new Set(held.map((h) => h.file)).size;
  const title = `${files} changed ${files === 1 ? 'file lies' : 'files lie'} in paths held by other claims`;
  lines.push(
    `${title}. Coordinate with the holder before merging, or wait until the claim is released: this check runs again by itself then.`,
    '',
    '| File | Held by | Path claimed | Session | Author | Claimed |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const h of held.slice(0, MAX_TABLE_ROWS)) {
    const age = formatAge(input.now.getTime() - h.by.holder.started.getTime());
    lines.push(
      `| ${cell(h.file)} | ${h.by.issue} | ${cell(h.entry)} | ${cell(h.by.holder.session)} | ${cell(h.by.holder.author)} | ${age} ago |`,
    );
  }
  if (held.length > MAX_TABLE_ROWS) {
    lines.push('', `…and ${held.length - MAX_TABLE_ROWS} more.`);
  }
  return {
    outcome: {
      conclusion: input.pathGuard === 'fail' ? 'failure' : 'neutral',
      title,
      summary: lines.join('\n'),
    },
    flaggedBy,
  };
}

function isOwnWork(holder: VerifiedHolder, head: PullHead): boolean {
  return head.sameRepo && holder.holder.branch === head.ref;
}

/**
 * Text in a code span inside a table cell. File names are a fork's choice (a double backtick
 * or a newline in one once ended its span and let the rest be read as Markdown), so every
 * cell goes through markdownCode: nothing in it can end the span, the cell or the row.
 */
function cell(text: string): string {
  return markdownCode(text, { inTableCell: true });
}

/** `4 min`, `2 h 5 min`, `3 d 4 h`: enough to tell a fresh claim from an old one. */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}
