/**
 * The claims board's live sessions (docs/protocol.md §14): one small record per signed-in
 * browser, kept for the session's own lifetime. The cookie carries the user's token sealed;
 * this record is what sign-out removes, so every copy of the cookie is refused at once, on
 * every replica. Two implementations pass one contract suite: in memory (one replica) and
 * Redis (many). A session whose record is missing is over: losing the records (a restart of
 * an embedded app, a flushed Redis) signs people out, it never signs anyone in.
 */
export interface BoardSessions {
  /** Records session `id` as live for `ttlMs` (the cookie's own lifetime). */
  start(id: string, ttlMs: number): Promise<void>;
  /** Whether session `id` was started, has not ended, and has not outlived its TTL. */
  isLive(id: string): Promise<boolean>;
  /**
   * Ends session `id`. Resolves true when it was live, so of two sign-outs at once (two tabs,
   * two replicas) exactly one goes on to revoke the token. Atomic across replicas.
   */
  end(id: string): Promise<boolean>;
}
