/**
 * What GitHub shows of people's claims on one issue (docs/protocol.md §16): assignments from
 * the timeline, linked pull requests, roles. Pure data, read by the edge, judged by decide.
 */

/** An `assigned` or `unassigned` event of the issue's timeline. */
export interface AssignmentEvent {
  readonly event: 'assigned' | 'unassigned';
  /** The assignee's login. */
  readonly login: string;
  /** Who made the (un)assignment. */
  readonly actor: string;
  readonly at: Date;
}

/**
 * A pull request that mentions the issue (the timeline's `cross-referenced` entries): a
 * person's heartbeat (§16), or a hosted agent's claim when its body links the issue with a
 * closing keyword (§18). The fields after `open` are absent in what an older version kept.
 */
export interface LinkedPull {
  readonly author: string;
  readonly updatedAt: Date;
  readonly open: boolean;
  readonly number?: number;
  readonly body?: string;
  readonly createdAt?: Date;
  /** The pull request's repository is the issue's own. */
  readonly sameRepo?: boolean;
  /** Its head branch, when the entry or the event that led here names it. */
  readonly head?: string;
  readonly url?: string;
}

/** A login's role on the repository, as GitHub's permission endpoint names it. */
export type Role = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface PeopleFacts {
  /** null: the timeline was not read (no unexplained assignee, and none needed). */
  readonly timeline: readonly AssignmentEvent[] | null;
  readonly pulls: readonly LinkedPull[];
  /**
   * Roles on the repository of the logins the decision asks about (command authors, targets,
   * assignment actors). Key: the login lowercased.
   */
  readonly roles: ReadonlyMap<string, Role>;
  /** Organisation members among those logins (only read with `who: members`), lowercased. */
  readonly members: ReadonlySet<string>;
  /**
   * Per login (lowercased): the other issues of the installation where that login holds a
   * live person claim, as `owner/repo#n` (from the read model), for `maxClaims`.
   */
  readonly heldElsewhere: ReadonlyMap<string, readonly string[]>;
  /**
   * Comment ids the app already answered with 👍 (reactions are read only for command
   * comments whose `+1` count is above 0 and that have no tagged reply).
   */
  readonly reacted: ReadonlySet<number>;
  /**
   * Logins (lowercased) GitHub answered it cannot assign to this issue. Only the targets of
   * pending `/claim @login` commands are asked: a triager may name anyone, and GitHub drops
   * an account it cannot assign from an assignment silently. Absent: none asked.
   */
  readonly unassignable?: ReadonlySet<string>;
  /** The app's slug: commands may start with `@slug`. */
  readonly appSlug: string;
  /** The issue's own `owner/repo#n` and url, for notes and the holder summary. */
  readonly issue: string;
  readonly issueUrl: string;
  /** The issue's `created_at`: the start of a claim whose `assigned` event is unknown. */
  readonly createdAt: Date;
}
