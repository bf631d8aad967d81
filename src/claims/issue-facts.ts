import type { ReviewFacts } from './branch-work.js';
import type { PeopleFacts } from './people-facts.js';
import type { Hint, ThreadComment } from './types.js';

/** Everything decide() knows about one issue: GitHub's state plus what events told. */
export interface IssueFacts {
  readonly open: boolean;
  /** GitHub's `state_reason`: `completed`, `not_planned`, `reopened` or null. */
  readonly stateReason: string | null;
  readonly isPullRequest: boolean;
  readonly labels: readonly string[];
  readonly assignees: readonly string[];
  /** The whole thread, in any order. */
  readonly comments: readonly ThreadComment[];
  /** The app's own bot login (`slug[bot]`): its notes are recognised by it. */
  readonly appLogin: string;
  readonly hints: readonly Hint[];
  /**
   * The logins the app itself assigned for claims, as it remembers them (absent: it remembers
   * none). Each is unassigned once no claim of its author holds, whoever that author has
   * become: a claimant who stopped being a collaborator has no trusted marker left to say so.
   */
  readonly appAssignees?: readonly string[];
  /**
   * Verified holders of other issues of the repository whose paths may overlap this issue's
   * claims (docs/protocol.md §10): a claim overlapping one with a lower comment id loses.
   */
  readonly pathHolders?: readonly PathHolderFact[];
  /**
   * The logins GitHub reports as `type: "Bot"` among the assignees and the thread's comment
   * authors (docs/protocol.md §16): never a person, with or without a `[bot]` suffix (GitHub
   * shows its Copilot agent as `Copilot`). Absent: read from a kept answer that predates it,
   * and the suffix alone tells.
   */
  readonly bots?: readonly string[];
  /** People's claims (docs/protocol.md §16). Absent with `people.enabled: false`: part two exactly. */
  readonly people?: PeopleFacts;
  /**
   * docs/protocol.md §17: the work on each stale claim's branch, as the edge read it
   * (`reviewReads`). Absent: nothing was read, and stale claims go back to the queue.
   */
  readonly review?: ReviewFacts;
}

/** A holder of another issue of the repository and its paths, verified from its thread. */
export interface PathHolderFact {
  /** The other issue as people write it: `acme/widgets#5`. */
  readonly issue: string;
  readonly commentId: number;
  readonly session: string;
  /** Canonical entries (src/claims/paths.ts). */
  readonly paths: readonly string[];
}
