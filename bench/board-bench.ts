import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createBoardHandler } from '../src/board/board-http.js';
import { sealSession } from '../src/board/session-cookie.js';
import { storeBoardSource } from '../src/board/store-board-source.js';
import { formatClaimTime } from '../src/claims/marker.js';
import { MemoryBoardSessions } from '../src/store/memory-board-sessions.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { fmt, type Section } from './section.js';

const CLAIMS = 1_000;
const REPOS = 20;
const RUNS = 60;
const SECRET = 'bench-session-secret-bench-session-secret';

/** Median and 95th percentile of the samples, in ms. */
function summary(samples: number[]): { medianMs: number; p95Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    medianMs: sorted[Math.floor(sorted.length / 2)]!,
    p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!,
  };
}

/** GitHub's two visibility lists for one installation of REPOS repositories. */
const fakeGitHub: typeof fetch = async (input) => {
  const url = new URL(String(input));
  const body = url.pathname.endsWith('/repositories')
    ? { repositories: Array.from({ length: REPOS }, (_, i) => ({ full_name: `acme/repo-${i}` })) }
    : { installations: [{ id: 1 }] };
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
};

/**
 * The claims board with 1,000 live claims over 20 repositories (docs/protocol.md §14): the
 * page and data.json served over loopback HTTP by the real handler, from the open-issue index
 * of the in-memory store, the user's visibility cached (as after the first view). Time per
 * request, client side.
 */
export async function benchBoard(): Promise<Section> {
  const store = new MemoryStore();
  const now = Date.now();
  const stamp = (ms: number) => formatClaimTime(new Date(ms));
  for (let i = 0; i < CLAIMS; i++) {
    const repo = `acme/repo-${i % REPOS}`;
    const number = i + 1;
    const key = { installationId: 1, owner: 'acme', repo: `repo-${i % REPOS}`, number };
    const url = `https://github.com/${repo}/issues/${number}`;
    const beat = now - (i % 300) * 60_000;
    // The open-issue index the board reads its rows from, as events and reconciles keep it.
    await store.putOpenIssue({
      key,
      title: `Issue ${number}: make the <widget> faster & safer`,
      url,
      labels: [],
      assignees: [],
      createdAt: stamp(now - 7_200_000),
      updatedAt: stamp(now - 3_600_000),
    });
    await store.setIssueClaim(key, {
      commentId: 10_000 + i,
      url: `${url}#issuecomment-${10_000 + i}`,
      author: `agent-${i % 37}`,
      avatarUrl: `https://avatars.githubusercontent.com/u/${i % 37}?v=4`,
      session: `h:${(i * 7919).toString(16).padStart(12, '0').slice(-12)}`,
      lane: 'h:098f6bcd4621',
      branch: `feat/issue-${number}`,
      stage: ['claimed', 'implementing', 'review', 'blocked'][i % 4]!,
      ...(i % 3 === 0 ? { paths: ['src/a.ts', 'docs/'] } : {}),
      started: stamp(now - 3_600_000),
      updated: stamp(beat),
      heartbeat: stamp(beat),
      staleAt: stamp(beat + 6 * 3_600_000 + 1000),
      commentUpdatedAt: stamp(beat),
    });
  }
  // Each view checks the session's record (docs/protocol.md §14: sign-out ends it).
  const sessions = new MemoryBoardSessions();
  await sessions.start('bench-session', 3_600_000);
  const handler = createBoardHandler({
    settings: {
      boardOAuth: { clientId: 'Iv1.bench', clientSecret: 'bench' },
      publicUrl: undefined,
      sessionSecret: SECRET,
      gheHost: undefined,
      gheProtocol: 'https',
      githubBaseUrl: undefined,
    },
    source: storeBoardSource(store),
    sessions,
    log: pino({ level: 'silent' }),
    fetch: fakeGitHub,
  });
  const server = createServer((req, res) => {
    handler(req, res).then((done) => {
      if (!done) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cookie = `cw_board_session=${sealSession(SECRET, {
    id: 'bench-session',
    login: 'agent-1',
    avatarUrl: '',
    token: 'ghu_bench',
    expiresAt: now + 3_600_000,
  })}`;

  const rows: Array<{ name: string; bytes: number; medianMs: number; p95Ms: number }> = [];
  try {
    for (const [name, path] of [
      ['GET /claims (HTML page)', '/claims'],
      ['GET /claims/data.json', '/claims/data.json'],
    ] as const) {
      const samples: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS + 5; run++) {
        const started = performance.now();
        const response = await fetch(`${base}${path}`, { headers: { cookie } });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
        // The first runs warm the JIT and fill the visibility cache.
        if (run >= 5) samples.push(performance.now() - started);
        bytes = Buffer.byteLength(text);
      }
      rows.push({ name, bytes, ...summary(samples) });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return {
    id: 'board',
    title: `The claims board with ${fmt(CLAIMS)} live claims, per request`,
    notes: [
      `${REPOS} repositories, all visible; in-memory store's open-issue index; visibility cached; ${RUNS} requests each over loopback HTTP.`,
    ],
    columns: ['request', 'bytes', 'median ms', 'p95 ms'],
    rows: rows.map((r) => [r.name, fmt(r.bytes), fmt(r.medianMs, 1), fmt(r.p95Ms, 1)]),
    data: rows,
  };
}
