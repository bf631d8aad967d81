/** The stages a claim marker may carry (docs/protocol.md §1). `fix-round-N` has N in 1..999. */
export type Stage =
  | 'claimed'
  | 'implementing'
  | 'review'
  | 'blocked'
  | 'queued'
  | 'landing'
  | 'released'
  | `fix-round-${number}`;

/** How a released claim ended (docs/protocol.md §1). */
export type Outcome = 'landed' | 'abandoned' | 'handed-over';

/** Whether the claim assigned its account (`claim`) or found it assigned (`before`). */
export type AssigneeMode = 'claim' | 'before';

/** One parsed claim marker: the first line of a claim comment (docs/protocol.md §1). */
export interface ClaimMarker {
  readonly session: string;
  readonly lane: string;
  readonly branch: string;
  readonly started: Date;
  readonly updated: Date;
  readonly stage: Stage;
  readonly assignee?: AssigneeMode;
  /** Present only with `stage: 'released'`. */
  readonly outcome?: Outcome;
}

/** A comment of an issue thread, as GitHub reports it; the facts decide() reads. */
export interface ThreadComment {
  readonly id: number;
  readonly author: string;
  /** GitHub's `author_association`: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, ... */
  readonly authorAssociation: string;
  readonly body: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly url?: string;
  /** The author's avatar, for display (the claims board); never read by decide(). */
  readonly avatarUrl?: string;
}

/**
 * What an event tells the reconcile besides "look at this issue": facts the thread no longer
 * shows (a deleted comment) or that only the event carries (who removed a label). JSON-safe,
 * so the Redis queue can carry it; times are ISO strings.
 */
export type Hint =
  | {
      readonly kind: 'label-removed';
      readonly label: string;
      readonly by: string;
      readonly at: string;
    }
  | {
      readonly kind: 'label-added';
      readonly label: string;
      readonly by: string;
      readonly at: string;
    }
  | {
      /** A claim comment deleted, or edited so that it no longer carries a marker. */
      readonly kind: 'comment-deleted';
      readonly commentId: number;
      readonly author: string;
      readonly authorAssociation: string;
      readonly body: string;
      readonly at: string;
    }
  | {
      /** A released marker was edited back to a live stage (docs/protocol.md §3: `released` is final). */
      readonly kind: 'release-reverted';
      readonly commentId: number;
      readonly outcome?: Outcome;
      readonly at: string;
    }
  | {
      /**
       * Not about the claims: set the pull request's `claim-warden/paths` check run
       * (docs/protocol.md §11). `head` as the event reported it; absent for a re-check, which
       * reads the pull request first.
       */
      readonly kind: 'check-pull';
      readonly head?: PullHead;
      readonly at: string;
    }
  | {
      /** A push to the branch the holder names (docs/protocol.md §11 heartbeat). */
      readonly kind: 'push-heartbeat';
      readonly branch: string;
      readonly pusher: string;
      /** When GitHub took the push (ISO). */
      readonly at: string;
    }
  | {
      /**
       * docs/protocol.md §18: a hosted agent's pull request whose body links the issue, as
       * its `pull_request` event showed it (the timeline may not list it yet, and never names
       * its head branch).
       */
      readonly kind: 'hosted-pull';
      readonly number: number;
      readonly author: string;
      readonly body: string;
      readonly open: boolean;
      readonly head: string;
      readonly url: string;
      readonly createdAt: string;
      readonly updatedAt: string;
      readonly at: string;
    }
  | {
      /**
       * Not about an issue (its request names issue 0 of the repository): set the
       * `claim-warden/config` check run on a commit that changed `.github/claims.yml`.
       */
      readonly kind: 'check-config';
      readonly sha: string;
    };

/** A pull request's head commit, as its `pull_request` event reports it. */
export interface PullHead {
  readonly sha: string;
  readonly ref: string;
  /** The head branch lives in the pull request's own repository (not a fork). */
  readonly sameRepo: boolean;
}
