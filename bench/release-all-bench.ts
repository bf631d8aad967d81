/**
 * Releasing everything a session holds (docs/protocol.md §17): one `DELETE /claims` of 20
 * claims over 5 repositories, against the same 20 claims released one `DELETE …/claim` at a
 * time: time, and GitHub calls per claim (webhook echoes included). Goal: no more calls per
 * claim than a single release.
 */
import type { RecordedRequest } from '../test/fake-github/fake-github.js';
import { agent, INSTALLATION, startBenchCluster } from './bench-cluster.js';
import { isCounted } from './measured-calls.js';
import { fmt, type Section } from './section.js';

const REPOS = ['acme/r1', 'acme/r2', 'acme/r3', 'acme/r4', 'acme/r5'];
const PER_REPO = 4;
const CLAIMS = REPOS.length * PER_REPO;
/** Write pacing of this bench (production: 1000 ms per installation); see the notes. */
const PACING_MS = 100;
/** Unused by a one-replica cluster (no Redis); the bench cluster asks for one. */
const DB = 9;

interface Row {
  readonly scenario: string;
  readonly ms: number;
  readonly calls: number;
  readonly writes: number;
  readonly notModified: number;
}

async function call(url: string, token: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${url}/api/claims/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, checked below
  return { status: response.status, body: (await response.json()) as any };
}

/** The two ways, on one app: sessions `all` and `one` each hold 4 issues in each repository. */
async function measure(): Promise<Row[]> {
  const cluster = await startBenchCluster({
    replicas: 1,
    db: DB,
    env: { CLAIMS_WRITE_PACING_MS: String(PACING_MS) },
    seed: (fake) => {
      fake.addInstallation({ id: INSTALLATION, account: 'acme', repos: REPOS });
      for (const repo of REPOS) fake.createLabel(repo, { name: 'status:in-progress' });
      fake.addUser(agent(0), { association: 'COLLABORATOR' });
    },
  });
  try {
    const { fake, apps, urls } = cluster;
    const url = urls[0]!;
    const token = fake.tokenFor(agent(0));
    const settle = async () => {
      for (let i = 0; i < 2; i++) {
        await fake.settled();
        await apps[0]!.warden.queue.idle();
      }
    };
    const held: Record<'all' | 'one', Array<{ repo: string; n: number }>> = { all: [], one: [] };
    for (const session of ['all', 'one'] as const) {
      for (const repo of REPOS) {
        for (let i = 0; i < PER_REPO; i++) {
          const n = fake.createIssue(repo);
          const path = `/repos/${repo}/issues/${n}/claim`;
          const answer = await call(url, token, 'POST', path, {
            session,
            lane: 'm',
            branch: `feat/${session}`,
          });
          if (answer.status !== 201) throw new Error(`release-all bench: claim ${answer.status}`);
          held[session].push({ repo, n });
        }
      }
    }
    const rows: Row[] = [];
    const run = async (scenario: string, act: () => Promise<void>) => {
      await settle();
      const mark = fake.requests.length;
      const started = performance.now();
      await act();
      const ms = performance.now() - started;
      await settle();
      const requests = fake.requests.slice(mark).filter((r) => !r.path.startsWith('/app/'));
      rows.push(row(scenario, ms, requests));
    };
    // First the release of everything, so it pays for anything the claims left uncached.
    await run(`one DELETE /claims releasing ${CLAIMS} claims`, async () => {
      const answer = await call(url, token, 'DELETE', '/claims', { session: 'all' });
      if (answer.status !== 200 || answer.body.released.length !== CLAIMS) {
        throw new Error(`release-all bench: DELETE /claims answered ${answer.status}`);
      }
    });
    await run(`${CLAIMS} single DELETE …/claim, one after another`, async () => {
      for (const { repo, n } of held.one) {
        const path = `/repos/${repo}/issues/${n}/claim`;
        const answer = await call(url, token, 'DELETE', path, {
          session: 'one',
          outcome: 'abandoned',
        });
        if (answer.status !== 200) throw new Error(`release-all bench: release ${answer.status}`);
      }
    });
    return rows;
  } finally {
    await cluster.close();
  }
}

function row(scenario: string, ms: number, requests: readonly RecordedRequest[]): Row {
  const counted = requests.filter(isCounted);
  return {
    scenario,
    ms,
    calls: counted.length,
    writes: counted.filter((r) => r.method !== 'GET').length,
    notModified: requests.length - counted.length,
  };
}

/** docs/protocol.md §17: a session's release of everything it holds, against one at a time. */
export async function benchReleaseAll(): Promise<Section> {
  const rows = await measure();
  return {
    id: 'release-all',
    title: 'Releasing everything a session holds',
    notes: [
      `${CLAIMS} claims of one session over ${REPOS.length} repositories of one installation, one replica; identity and visibility cached by the claims.`,
      `Write pacing ${PACING_MS} ms per installation (production: 1000 ms), so times here are mostly pacing; calls include the webhook echoes' reconciles.`,
      'Goal: the release of everything costs no more GitHub calls per claim than a single release.',
    ],
    columns: ['scenario', 'time', 'per claim', 'GitHub calls per claim', 'detail'],
    rows: rows.map((r) => [
      r.scenario,
      `${fmt(r.ms)} ms`,
      `${fmt(r.ms / CLAIMS)} ms`,
      fmt(r.calls / CLAIMS, 2),
      `${r.calls} calls, ${r.writes} writes, ${r.notModified} reads answered 304 (not counted)`,
    ]),
    data: rows,
  };
}
