import type { BranchWork } from './branch-work.js';
import type { AssigneeMode, Outcome } from './types.js';

/** Why a claim comment is finalised; also the label of the finalisations metric. */
export type FinaliseReason =
  | 'lost'
  | 'stale'
  | 'closed'
  | 'administrative'
  | 'release-final'
  | 'paths'
  /** A person holds the issue: "assigned to @alice, who holds this issue" (abandoned). */
  | 'person'
  /** A maintainer assigned a person: "handed to @alice by @maintainer" (outcome handed-over). */
  | 'handed-over'
  /** docs/protocol.md §17: the issue needs review and the claim is not its owner's (abandoned). */
  | 'needs-review'
  /** Another claim is in its grace (docs/protocol.md §17): "in grace for @alice's session until T". */
  | 'grace'
  /** A claim in grace its own session claimed again (§17): outcome handed-over. */
  | 'reclaimed';

/** One change to GitHub; a Plan is a list of them, applied in order by one executor. */
export type Action =
  | { readonly kind: 'post-note'; readonly body: string; readonly forCommentId: number }
  | {
      readonly kind: 'finalise';
      readonly commentId: number;
      readonly body: string;
      readonly reason: FinaliseReason;
      readonly outcome: Outcome;
      /** docs/protocol.md §17: the work a stale claim left for review. */
      readonly review?: BranchWork;
    }
  | { readonly kind: 'remove-label'; readonly label: string }
  | {
      readonly kind: 'add-label';
      readonly label: string;
      /** Which status label it is: the colour and description it is created with. */
      readonly role: LabelRole;
    }
  | { readonly kind: 'unassign'; readonly login: string }
  | { readonly kind: 'assign'; readonly login: string }
  /**
   * A 👍 (+1) on an accepted command (docs/protocol.md §16). People's replies, reminders,
   * waitlist and expiry notes are `post-note`s whose first line is a hidden tag, so they are
   * recognised and never repeated.
   */
  | { readonly kind: 'react'; readonly commentId: number }
  // A session's own comment writes, which executePlan may send with the session's own token:
  | {
      /** A new claim comment; the executor reports the comment GitHub made of it. */
      readonly kind: 'post-claim';
      readonly body: string;
    }
  | {
      /** The session's own claim comment rewritten: a stage recorded, or its release. */
      readonly kind: 'edit-claim';
      readonly commentId: number;
      readonly body: string;
    }
  | {
      /** The session's own legacy claim comment, once its replacement is posted (migrate). */
      readonly kind: 'delete-comment';
      readonly commentId: number;
    };

/** The kinds of action that write a session's own comments, not the shared state. */
export const OWN_COMMENT_KINDS = ['post-claim', 'edit-claim', 'delete-comment'] as const;

/** The two status labels of docs/protocol.md §4, the pinned label of §16 and the review label of §17. */
export type LabelRole = 'inProgress' | 'blocked' | 'pinned' | 'needsReview';

/** The holder of an issue: an agent's claim comment or a person's assignment. */
export type HolderSummary = AgentHolder | PersonHolder;

/** The holder decide() settled on when it is an agent's claim comment, for logs and the client. */
export interface AgentHolder {
  readonly kind: 'agent';
  readonly commentId: number;
  readonly author: string;
  readonly session: string;
  readonly stage: string;
  /** The rest of the holder's marker and comment, for the work queue's index (§9). */
  readonly lane: string;
  readonly branch: string;
  readonly started: Date;
  readonly updated: Date;
  /** The holder's heartbeat (docs/protocol.md §3). */
  readonly heartbeat: Date;
  readonly assignee?: AssigneeMode;
  readonly url?: string;
  /**
   * Set when the holder is a stale claim in its grace (docs/protocol.md §17): it holds the issue
   * against other sessions until then.
   */
  readonly graceUntil?: Date;
  /** The paths it holds (docs/protocol.md §10), canonical; empty without a valid path line. */
  readonly paths: readonly string[];
  /** Why its path line was refused, when it has one that breaks the grammar: log it. */
  readonly pathProblem?: string;
}

/** A person's assignment holding the issue (docs/protocol.md §16). */
export interface PersonHolder {
  readonly kind: 'person';
  /** The assignee's login. */
  readonly author: string;
  /** The latest `assigned` event for them. */
  readonly started: Date;
  /** Their latest activity (docs/protocol.md §16 liveness). */
  readonly heartbeat: Date;
  /** The `assigned` event's actor. */
  readonly assignedBy: string;
  readonly pinned: boolean;
  /** False: `people.expire` exempts it, or it is pinned. */
  readonly expires: boolean;
  /** The url. */
  readonly url?: string;
}

/** The result of decide(): what to write, and when to look at the issue again. */
export interface Plan {
  readonly actions: readonly Action[];
  readonly holder: HolderSummary | null;
  /** When the holder turns stale; the sweep reconciles the issue then. Null: nothing due. */
  readonly deadline: Date | null;
  /** People waiting for the issue (docs/protocol.md §16), first first; [] without people. */
  readonly waitlist: readonly string[];
}
