/** What decide() needs of the repository config (docs/protocol.md §7), already resolved. */
export interface DecideConfig {
  readonly staleAfterMs: number;
  /**
   * How long after going stale a claim still holds its issue against other sessions
   * (docs/protocol.md §17 "Grace for the owner"); 0 or absent: off.
   */
  readonly graceMs?: number;
  readonly labels: {
    readonly inProgress: string;
    readonly blocked: string;
    /** docs/protocol.md §17; absent: `status:needs-review`. */
    readonly needsReview?: string;
  };
  readonly assign: boolean;
  readonly notifyOnExpiry: boolean;
  readonly enforceLabels: boolean;
  readonly trustedBots: readonly string[];
  /** Logins and `org/team`s an expiry note mentions besides the author (docs/protocol.md §13). */
  readonly notify?: readonly string[];
  /** People's claims (docs/protocol.md §16); absent: disabled. */
  readonly people?: PeopleConfig;
}

/** The `people:` block of the repository config, resolved (docs/protocol.md §16). */
export interface PeopleConfig {
  readonly who: 'collaborators' | 'members' | 'anyone';
  /** With `who: anyone`, the issues outsiders may claim. */
  readonly labels: readonly string[];
  /** Live person claims per login per installation; 0: no cap. */
  readonly maxClaims: number;
  /** 1d..90d, default 14d. */
  readonly staleAfterMs: number;
  /** 0: no reminder; below staleAfterMs; default 10d. */
  readonly remindAfterMs: number;
  readonly expire: 'commands' | 'all' | 'never';
  /** Who may hand an agent's issue to a person. */
  readonly handover: 'maintain' | 'triage';
  /** Default "claim:pinned". */
  readonly pinnedLabel: string;
}
