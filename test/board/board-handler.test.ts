import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { BoardSettings } from '../../src/board/board-deps.js';
import { createBoardHandler } from '../../src/board/board-http.js';
import type { BoardSource } from '../../src/board/board-source.js';
import { sealSession } from '../../src/board/session-cookie.js';
import type { BoardSessions } from '../../src/store/board-sessions.js';
import { MemoryBoardSessions } from '../../src/store/memory-board-sessions.js';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const SETTINGS: BoardSettings = {
  boardOAuth: { clientId: 'Iv1.test', clientSecret: 'test' },
  publicUrl: undefined,
  sessionSecret: SECRET,
  gheHost: undefined,
  gheProtocol: 'https',
  githubBaseUrl: undefined,
};

/** GitHub's visibility lists: one installation with acme/widgets; or a failing GitHub. */
function gitHub(status = 200): typeof fetch {
  return async (input) => {
    const body = String(input).includes('/repositories')
      ? { repositories: [{ full_name: 'acme/widgets' }] }
      : { installations: [{ id: 1 }] };
    return new Response(JSON.stringify(body), { status });
  };
}

/** The live sessions: alice's is. */
const sessions = new MemoryBoardSessions();
await sessions.start('s-alice', 3_600_000);

async function serve(
  source: BoardSource,
  fetchImpl: typeof fetch,
  onFinished: (fn: () => Promise<void>) => void,
  live: BoardSessions = sessions,
) {
  const handler = createBoardHandler({
    settings: SETTINGS,
    source,
    sessions: live,
    log: pino({ level: 'silent' }),
    fetch: fetchImpl,
  });
  const server = createServer((req, res) => {
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onFinished(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const cookie = `cw_board_session=${sealSession(SECRET, {
  id: 's-alice',
  login: 'alice',
  avatarUrl: '',
  token: 'ghu_test',
  expiresAt: Date.now() + 3_600_000,
})}`;

const failing: BoardSource = {
  liveClaims: async () => {
    throw new Error('Redis is away');
  },
  reviewRows: async () => [],
  claimableCounts: async () => null,
  recentChanges: async () => [],
};
const empty: BoardSource = {
  liveClaims: async () => [],
  reviewRows: async () => [],
  claimableCounts: async () => new Map([['1/acme/widgets', 4]]),
  recentChanges: async () => [],
};

describe('the board handler on its own', () => {
  it('answers 503, not a crash, when its store does not answer', async ({ onTestFinished }) => {
    const base = await serve(failing, gitHub(), onTestFinished);
    const response = await fetch(`${base}/claims/data.json`, { headers: { cookie } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('15');
  });

  it('answers 503, not a crash, when the session records do not answer', async ({
    onTestFinished,
  }) => {
    const away: BoardSessions = {
      start: async () => {},
      end: async () => false,
      isLive: async () => {
        throw new Error('Redis is away');
      },
    };
    const base = await serve(empty, gitHub(), onTestFinished, away);
    for (const path of ['/claims', '/claims/data.json']) {
      const response = await fetch(`${base}${path}`, { headers: { cookie } });
      expect(response.status).toBe(503);
      expect(await response.text()).not.toContain('Redis is away');
    }
  });

  it('shows nothing when GitHub does not answer the visibility check (fail closed)', async ({
    onTestFinished,
  }) => {
    const base = await serve(empty, gitHub(502), onTestFinished);
    expect((await fetch(`${base}/claims/data.json`, { headers: { cookie } })).status).toBe(503);
    const page = await fetch(`${base}/claims`, { headers: { cookie } });
    expect(page.status).toBe(503);
    expect(await page.text()).not.toContain('acme/widgets');
  });

  it('shows a claimable count when the source has an index of open issues', async ({
    onTestFinished,
  }) => {
    const base = await serve(empty, gitHub(), onTestFinished);
    const data = await (await fetch(`${base}/claims/data.json`, { headers: { cookie } })).json();
    expect(data.repos).toEqual([{ repo: 'acme/widgets', live: 0, claimable: 4 }]);
  });

  it('leaves every other path to the rest of the server', async () => {
    const handler = createBoardHandler({
      settings: SETTINGS,
      source: empty,
      sessions,
      log: pino({ level: 'silent' }),
    });
    for (const url of ['/health', '/claimsx', '/api/claims/v1/issues']) {
      expect(await handler({ url, method: 'GET', headers: {} } as never, {} as never)).toBe(false);
    }
  });
});
