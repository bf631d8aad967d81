/** What a remote MCP session remembers between requests (nothing secret: no token). */
export interface McpSessionRecord {
  /** The hash of the caller's token: a session answers only the token that opened it. */
  readonly tokenHash: string;
  /** The `client` of its claims: `initialize`'s `clientInfo.name`, folded; none when unusable. */
  readonly client?: string | undefined;
}

/**
 * The remote MCP server's sessions, in the shared store so any replica answers any request of
 * any session (the MCP Streamable HTTP transport: "a session id, if used, lives in the shared
 * store"). A session lives `idleMs` past its last request; a caller holds at most `max` at once.
 * Two implementations: in memory (one replica) and Redis (many).
 */
export interface McpSessions {
  /** Opens session `id` unless the caller already holds `max` live ones; false then. */
  start(id: string, record: McpSessionRecord, idleMs: number, max: number): Promise<boolean>;
  /**
   * The session's record, its idle time restarted, when `id` is live and was opened with the
   * token of `tokenHash`; otherwise null (over, unknown, or another caller's).
   */
  touch(id: string, tokenHash: string, idleMs: number): Promise<McpSessionRecord | null>;
  /** Ends session `id` of the caller of `tokenHash`; true when it was live. */
  end(id: string, tokenHash: string): Promise<boolean>;
}

/** {@link McpSessions} in memory: one replica (an embedded app). */
export function memoryMcpSessions(now: () => number = Date.now): McpSessions {
  const live = new Map<string, McpSessionRecord & { expiresAt: number }>();
  const sweep = () => {
    const at = now();
    for (const [id, record] of live) if (record.expiresAt <= at) live.delete(id);
  };
  return {
    async start(id, record, idleMs, max) {
      sweep();
      const held = [...live.values()].filter((r) => r.tokenHash === record.tokenHash).length;
      if (held >= max) return false;
      live.set(id, { ...record, expiresAt: now() + idleMs });
      return true;
    },
    async touch(id, tokenHash, idleMs) {
      sweep();
      const record = live.get(id);
      if (!record || record.tokenHash !== tokenHash) return null;
      record.expiresAt = now() + idleMs;
      return { tokenHash: record.tokenHash, client: record.client };
    },
    async end(id, tokenHash) {
      sweep();
      const record = live.get(id);
      if (!record || record.tokenHash !== tokenHash) return false;
      return live.delete(id);
    },
  };
}
