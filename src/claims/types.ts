/** The stages a claim marker may carry (SPEC §1). `fix-round-N` has N in 1..999. */
export type Stage =
  | 'claimed'
  | 'implementing'
  | 'review'
  | 'blocked'
  | 'queued'
  | 'landing'
  | 'released'
  | `fix-round-${number}`;

/** How a released claim ended (SPEC §1). */
export type Outcome = 'landed' | 'abandoned' | 'handed-over';

/** Whether the claim assigned its account (`claim`) or found it assigned (`before`). */
export type AssigneeMode = 'claim' | 'before';

/** One parsed claim marker: the first line of a claim comment (SPEC §1). */
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
}
