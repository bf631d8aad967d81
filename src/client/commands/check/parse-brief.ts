import { isClaimIdentity } from '../../../claims/marker.js';
import { usageError } from '../../core/client-error.js';
import { formatIssueRef, type IssueRef, parseIssueRef } from '../../core/issue-ref.js';

/** The claim fields of a subagent brief: the issues it works on and the session holding them. */
interface BriefClaim {
  /** Every issue named on an `issue:` line, once each, in the order first named. */
  readonly issues: readonly IssueRef[];
  /** The `session:` value, or null when the brief has none. */
  readonly session: string | null;
}

// Seed "Dispatch enforcement": a field starts at column 0 with the lowercase word. Bulleted,
// indented or capitalised lines are prose and never match.
const ISSUE_FIELD = /^issue:(.*)$/;
const SESSION_FIELD = /^session:(.*)$/;

/**
 * Extracts the claim fields of a brief (docs/agents.md, "The dispatch
 * gate"). A token on an `issue:` line that is not `<owner>/<repo>#<number>`
 * (`#0` and leading zeros included) is a usage error, not skipped: a typo must not let a
 * dispatch through unchecked. The session is validated only when the brief names an issue,
 * as a brief without issues is not the gate's business.
 */
export function parseBrief(text: string): BriefClaim {
  const issues = new Map<string, IssueRef>();
  const sessions = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const issue = ISSUE_FIELD.exec(line);
    if (issue) {
      for (const token of issue[1]!.split(',')) {
        const ref = parseIssueRef(token.trim());
        issues.set(formatIssueRef(ref), ref);
      }
      continue;
    }
    const session = SESSION_FIELD.exec(line);
    if (session) sessions.add(session[1]!.trim());
  }
  if (issues.size === 0) return { issues: [], session: null };
  if (sessions.size > 1) {
    throw usageError('the brief names more than one session: line; name exactly one');
  }
  const [session] = [...sessions];
  if (session !== undefined && !isClaimIdentity(session)) {
    throw usageError(
      'the brief has a session: value that is not a session identifier (1..128 letters, digits and . _ / : + @ -, starting with a letter or digit)',
    );
  }
  return { issues: [...issues.values()], session: session ?? null };
}
