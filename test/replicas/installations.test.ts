import { afterEach, describe, expect, it } from 'vitest';
import { main, type RunningApp } from '../../src/app/main.js';
import type { FakeGitHub, RecordedRequest, WebhookDelivery } from '../fake-github/fake-github.js';
import { appEnv, freePort } from '../helpers/app-harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  REPO,
  type Replica,
  startCluster,
  waitFor,
} from './harness.js';

let cluster: Cluster | undefined;
let embedded: RunningApp | undefined;
afterEach(async () => {
  await embedded?.stop();
  embedded = undefined;
  await cluster?.close();
  cluster = undefined;
});

const OTHER_REPO = 'globex/gadgets';

/**
 * The fake with the second installation and one embedded app (no Redis) taking its
 * webhooks; `replica` is where cluster.send delivers to it.
 */
async function startEmbedded(
  env: Record<string, string> = {},
): Promise<{ fake: FakeGitHub; replica: Replica }> {
  cluster = await startCluster({ replicas: 0, seed: seedSecondInstallation });
  const { fake } = cluster;
  const port = await freePort();
  embedded = await main(appEnv(fake, port, env));
  await embedded.warden.started;
  return {
    fake,
    replica: { webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks` } as Replica,
  };
}

/** The writes to one repository (token minting is auth, not a write). */
function writesTo(requests: readonly RecordedRequest[], repo: string): RecordedRequest[] {
  return requests.filter(
    (r) => r.method !== 'GET' && r.method !== 'HEAD' && r.path.startsWith(`/repos/${repo}/`),
  );
}

describe('installations do not wait on each other', () => {
  it('two installations’ writes proceed in parallel; one installation’s stay paced', async () => {
    cluster = await startCluster({ replicas: 0, label: false, seed: seedSecondInstallation });
    // GitHub's second between writes, on a clock that moves only when the test moves it.
    const clock = manualClock();
    await cluster.startReplica({
      env: { CLAIMS_WRITE_PACING_MS: '1000' },
      main: { pacingClock: clock },
    });
    const { fake, replicas } = cluster;
    const a = fake.createIssue(REPO);
    const b = fake.createIssue(OTHER_REPO);
    const deliveries = createdDeliveries(fake, [
      fake.addComment(REPO, a, { author: 'alice', body: claim('s-acme') }).id,
      fake.addComment(OTHER_REPO, b, { author: 'carol', body: claim('s-globex') }).id,
    ]);
    fake.clearRequests();

    await Promise.all(deliveries.map((d) => cluster!.send(d, replicas[0]!)));

    // Each claim costs three writes: create the label, add it, assign. Both installations
    // make each of theirs while the clock stands still (neither waits on the other), then
    // wait a second each before the next (their own pacing), one second for both.
    for (const count of [1, 2, 3]) {
      await waitFor(
        () =>
          writesTo(fake.requests, REPO).length === count &&
          writesTo(fake.requests, OTHER_REPO).length === count &&
          (count === 3 || clock.held.length === 2),
        `write ${count} of each installation`,
      );
      expect(clock.held.map((wait) => wait.ms)).toEqual(count === 3 ? [] : [1000, 1000]);
      clock.advance(1000);
    }
    await cluster.idle();
    expect(writesTo(fake.requests, REPO)).toHaveLength(3);
    expect(writesTo(fake.requests, OTHER_REPO)).toHaveLength(3);
  });
});

/** Installation 8 on globex/gadgets with the member carol, beside the harness's 7 (acme). */
function seedSecondInstallation(fake: FakeGitHub): void {
  fake.addInstallation({ id: 8, account: 'globex', repos: [OTHER_REPO] });
  fake.addUser('carol', { association: 'MEMBER' });
}

/** How many issues of acme's backlog are labelled so far. */
function labelledIn(fake: FakeGitHub, issues: readonly number[]): number {
  return issues.filter((n) => fake.issue(REPO, n).labels.includes('status:in-progress')).length;
}

/**
 * Acme (installation 7) posts BACKLOG claims at once and every reconcile of it is slow (its
 * thread reads take a second, its writes are paced a second apart); then globex (8) posts one.
 * Returns how many of acme's issues were labelled by the time globex's claim was labelled
 * and assigned.
 */
async function backlogThenOne(
  fake: FakeGitHub,
  send: (delivery: WebhookDelivery, index: number) => Promise<number>,
): Promise<number> {
  const backlog = Array.from({ length: BACKLOG }, () => fake.createIssue(REPO));
  const acme = createdDeliveries(
    fake,
    backlog.map((n, i) => fake.addComment(REPO, n, { author: 'alice', body: claim(`s-${i}`) }).id),
  );
  const b = fake.createIssue(OTHER_REPO);
  const [globex] = createdDeliveries(fake, [
    fake.addComment(OTHER_REPO, b, { author: 'carol', body: claim('s-globex') }).id,
  ]);
  fake.inject({
    method: 'GET',
    path: /^\/repos\/acme\/widgets\/issues\/\d+\/comments$/,
    delayMs: 1000,
    times: Number.POSITIVE_INFINITY,
  });
  for (let i = 0; i < acme.length; i += 25) {
    const statuses = await Promise.all(acme.slice(i, i + 25).map((d, j) => send(d, i + j)));
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  expect(await send(globex!, 0)).toBe(200);

  await waitFor(() => {
    const issue = fake.issue(OTHER_REPO, b);
    return issue.labels.includes('status:in-progress') && issue.assignees.includes('carol');
  }, 'the other installation’s claim to be labelled and assigned');
  const done = labelledIn(fake, backlog);
  fake.clearInjections();
  return done;
}

/** GitHub's own write pacing, which makes acme's backlog slow to work off. */
const GITHUB_PACING = { CLAIMS_WRITE_PACING_MS: '1000' };

/** Acme's backlog: hundreds, as in the burst that starved other installations. */
const BACKLOG = 200;

describe('one installation’s burst does not stop another’s work', () => {
  it('embedded: a claim in another installation is enforced while the backlog still waits', async () => {
    const { fake, replica } = await startEmbedded(GITHUB_PACING);

    const done = await backlogThenOne(fake, (d) => cluster!.send(d, replica));

    // Before: the other claim waited for the whole backlog (100 claims: 120 s).
    expect(done).toBeLessThan(BACKLOG / 4);
    console.info(`[replicas] embedded: other installation served with ${done} of ${BACKLOG} done`);
  });

  it('three replicas on Redis: a claim in another installation is enforced while the backlog still waits', async () => {
    cluster = await startCluster({
      replicas: 3,
      seed: seedSecondInstallation,
      env: GITHUB_PACING,
    });
    const { fake, replicas } = cluster;

    const done = await backlogThenOne(fake, (d, i) => cluster!.send(d, replicas[i % 3]!));

    expect(done).toBeLessThan(BACKLOG / 4);
    console.info(
      `[replicas] 3 replicas: other installation served with ${done} of ${BACKLOG} done`,
    );
  });
});

/** Requests to a repository (token minting is auth, not the repository's). */
function requestsTo(requests: readonly RecordedRequest[], repo: string): RecordedRequest[] {
  return requests.filter((r) => r.path.startsWith(`/repos/${repo}/`));
}

/**
 * GitHub answers acme's first thread read with a 429 and `retry-after: 3`, a refusal the
 * throttling plugin does not retry by itself; globex posts a claim meanwhile. Returns the
 * 429's time, acme's next request's, and when globex's claim was enforced.
 */
async function rateLimitedInstallation(
  fake: FakeGitHub,
  send: (delivery: WebhookDelivery, index: number) => Promise<number>,
) {
  const a = fake.createIssue(REPO);
  const b = fake.createIssue(OTHER_REPO);
  const [acme, globex] = createdDeliveries(fake, [
    fake.addComment(REPO, a, { author: 'alice', body: claim('s-acme') }).id,
    fake.addComment(OTHER_REPO, b, { author: 'carol', body: claim('s-globex') }).id,
  ]);
  const refusal = fake.inject({
    method: 'GET',
    path: `/repos/${REPO}/issues/${a}/comments`,
    status: 429,
    headers: { 'retry-after': '3' },
    body: { message: 'Too many requests' },
  });
  fake.clearRequests();

  expect(await send(acme!, 0)).toBe(200);
  await waitFor(() => refusal.hits === 1, 'the 429');
  expect(await send(globex!, 1)).toBe(200);
  const enforced = (repo: string, n: number, login: string) => () => {
    const issue = fake.issue(repo, n);
    return issue.labels.includes('status:in-progress') && issue.assignees.includes(login);
  };
  await waitFor(enforced(OTHER_REPO, b, 'carol'), 'globex’s claim');
  const globexDone = Date.now();
  await waitFor(enforced(REPO, a, 'alice'), 'acme’s claim after the wait');

  const acmeRequests = requestsTo(fake.requests, REPO);
  const refused = acmeRequests.findIndex((r) => r.status === 429);
  expect(refused).toBeGreaterThanOrEqual(0);
  return {
    refusedAt: acmeRequests[refused]!.at.getTime(),
    nextAt: acmeRequests[refused + 1]!.at.getTime(),
    globexDone,
  };
}

describe('a rate-limited installation waits what GitHub said; others do not', () => {
  it('embedded: after a 429 with retry-after: 3, the next request comes no earlier', async () => {
    const { fake, replica } = await startEmbedded();

    const { refusedAt, nextAt, globexDone } = await rateLimitedInstallation(fake, (d) =>
      cluster!.send(d, replica),
    );

    // Before: retried after the queue's 1 s backoff.
    expect(nextAt - refusedAt).toBeGreaterThanOrEqual(3000);
    expect(globexDone).toBeLessThan(nextAt);
  });

  it('three replicas on Redis: after a 429 with retry-after: 3, the next request comes no earlier', async () => {
    cluster = await startCluster({ replicas: 3, seed: seedSecondInstallation });
    const { fake, replicas } = cluster;

    const { refusedAt, nextAt, globexDone } = await rateLimitedInstallation(fake, (d, i) =>
      cluster!.send(d, replicas[i % 3]!),
    );

    expect(nextAt - refusedAt).toBeGreaterThanOrEqual(3000);
    expect(globexDone).toBeLessThan(nextAt);
  });
});
