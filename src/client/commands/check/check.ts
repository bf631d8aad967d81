import { ownedBy } from '../../../claims/public-identity.js';
import { ClientError, type FailureKind } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import { formatIssueRef, type IssueRef } from '../../core/issue-ref.js';
import { describeFailure } from '../../io/describe-failure.js';
import type { Desk } from '../../io/desk.js';
import { readIssueState } from '../../io/issue-state.js';
import { type ClaimView, claimView, describeClaim } from '../replies/claim-view.js';
import { parseBrief } from './parse-brief.js';

/** The gate's answer for one issue of a brief. */
interface IssueVerdict {
  readonly issue: string;
  readonly verdict: 'allow' | 'deny';
  readonly reason:
    | 'held-by-session'
    | 'held-by-other'
    | 'unclaimed'
    | 'stale'
    | 'closed'
    | 'unverifiable';
  readonly message: string;
  readonly holder?: ClaimView;
  /** For an unclaimed or stale issue: the claim command to run first. */
  readonly command?: string;
}

/**
 * The dispatch gate (docs/agents.md, "The dispatch gate"): reads the brief's `issue:` and `session:`
 * fields and allows only when every named issue is held by that session. It denies when
 * another live session holds one (naming that claim), when one is unclaimed or its claim is
 * stale (with the claim command to run first), when the brief has no `session:`, and when a
 * claim cannot be read (fail closed). A malformed reference is a usage error. A brief that
 * names no issue is allowed without a token, a key or any network call: `openDesk` is not
 * even called.
 */
export async function check(brief: string, openDesk: () => Promise<Desk>): Promise<CommandResult> {
  const parsed = parseBrief(brief);
  if (parsed.issues.length === 0) {
    return ok('allow: the brief names no issue', { verdict: 'allow', issues: [] });
  }
  const names = parsed.issues.map(formatIssueRef);
  if (parsed.session === null) {
    throw new ClientError(
      'refused',
      `deny: the brief names ${names.join(', ')} but no session: line; add "session: <id>" at column 0`,
      { verdict: 'deny', reason: 'no-session', issues: [] },
    );
  }
  const session = parsed.session;
  const desk = await openDesk();
  const verdicts = await Promise.all(parsed.issues.map((ref) => verdictFor(desk, ref, session)));
  const denied = verdicts.filter((v) => v.verdict === 'deny');
  const lines = verdicts.map((v) => `${v.verdict} ${v.issue}: ${v.message}`);
  if (denied.length === 0) {
    return ok(['allow', ...lines].join('\n'), { verdict: 'allow', issues: verdicts });
  }
  // A definite denial outranks "could not tell": both deny, the exit code says which.
  const kind: FailureKind = denied.some((v) => v.reason !== 'unverifiable')
    ? 'refused'
    : 'unverifiable';
  throw new ClientError(kind, ['deny', ...lines].join('\n'), { verdict: 'deny', issues: verdicts });
}

async function verdictFor(desk: Desk, ref: IssueRef, session: string): Promise<IssueVerdict> {
  const issue = formatIssueRef(ref);
  const command = `claim-warden claim ${issue} --session ${session} --lane <lane> --branch <branch>`;
  try {
    const state = await readIssueState(desk, ref);
    const window = state.config.staleAfterMs;
    if (!state.thread.open) {
      return { issue, verdict: 'deny', reason: 'closed', message: 'the issue is closed' };
    }
    const { holder } = state;
    if (holder) {
      const view = claimView(holder, true, window, state.now);
      return ownedBy(desk.key, session)(holder)
        ? {
            issue,
            verdict: 'allow',
            reason: 'held-by-session',
            message: `held by this session (${describeClaim(view)})`,
            holder: view,
          }
        : {
            issue,
            verdict: 'deny',
            reason: 'held-by-other',
            message: `held by another session: ${describeClaim(view)}`,
            holder: view,
          };
    }
    const stale = state.claims.some((claim) => claim.marker.stage !== 'released');
    return {
      issue,
      verdict: 'deny',
      reason: stale ? 'stale' : 'unclaimed',
      message: `${stale ? 'its claim is stale' : 'nobody claims it'}; claim it first: ${command}`,
      command,
    };
  } catch (error) {
    return {
      issue,
      verdict: 'deny',
      reason: 'unverifiable',
      message: `the claim could not be read: ${describeFailure(error)}`,
    };
  }
}
