/** What decide() needs of the repository config (docs/protocol.md §7), already resolved. */
export interface DecideConfig {
  readonly staleAfterMs: number;
  readonly labels: { readonly inProgress: string; readonly blocked: string };
  readonly assign: boolean;
  readonly notifyOnExpiry: boolean;
  readonly enforceLabels: boolean;
  readonly trustedBots: readonly string[];
  /** Logins and `org/team`s an expiry note mentions besides the author (docs/protocol.md §13). */
  readonly notify?: readonly string[];
}
