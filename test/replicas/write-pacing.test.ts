/**
 * Write pacing for the deployment (docs/replicas.md "Write pacing"): with three replicas on
 * one Redis, one installation's writes are spaced as CLAIMS_WRITE_PACING_MS says for the
 * installation as a whole, wherever they are made; another installation is not delayed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../fake-github/fake-github.js';
import { manualClock } from '../helpers/manual-clock.js';
import { type Cluster, claim, createdDeliveries, REPO, startCluster, waitFor } from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const OTHER_REPO = 'globex/gadgets';

/** Installation 8 on globex/gadgets with the member carol; dave collaborates on acme. */
function seed(fake: FakeGitHub): void {
  fake.addInstallation({ id: 8, account: 'globex', repos: [OTHER_REPO] });
  fake.addUser('carol', { association: 'MEMBER' });
  fake.addUser('dave', { association: 'COLLABORATOR' });
}

describe('three replicas on one Redis pace one installation as one', () => {
  it('claims started on all three at once write a second apart for the installation; another installation writes at once', async () => {
    cluster = await startCluster({ replicas: 0, seed });
    // One clock for the three, moved only by the test: every write's start is read off it.
    const clock = manualClock();
    for (let i = 0; i < 3; i++) {
      await cluster.startReplica({
        env: { CLAIMS_WRITE_PACING_MS: '1000' },
        main: { pacingClock: clock },
      });
    }
    const { fake, replicas } = cluster;
    const acme = ['alice', 'bob', 'dave'].map((author, i) => {
      const n = fake.createIssue(REPO);
      return fake.addComment(REPO, n, { author, body: claim(`s-${i}`) }).id;
    });
    const b = fake.createIssue(OTHER_REPO);
    const globex = fake.addComment(OTHER_REPO, b, { author: 'carol', body: claim('s-globex') }).id;
    const [a1, a2, a3, g] = createdDeliveries(fake, [...acme, globex]);
    // When, on the shared clock, each installation's writes reach GitHub.
    const acmeAt: number[] = [];
    const globexAt: number[] = [];
    const record = (times: number[]) => async () => {
      times.push(clock.now());
    };
    fake.inject({
      method: 'POST',
      path: /^\/repos\/acme\/widgets\//,
      times: Number.POSITIVE_INFINITY,
      hold: record(acmeAt),
    });
    fake.inject({
      method: 'POST',
      path: /^\/repos\/globex\/gadgets\//,
      times: Number.POSITIVE_INFINITY,
      hold: record(globexAt),
    });

    const sent = await Promise.all([
      cluster.send(a1!, replicas[0]!),
      cluster.send(a2!, replicas[1]!),
      cluster.send(a3!, replicas[2]!),
      cluster.send(g!, replicas[0]!),
    ]);
    expect(sent).toEqual([200, 200, 200, 200]);

    // Each acme claim writes its label and its assignee (the label exists): six writes. The
    // clock moves on only once the writes started so far reached GitHub, and then only to the
    // next start someone waits for: so each write is seen at the time it started.
    for (let step = 1; ; step++) {
      const acmeSoFar = Math.min(step, 6);
      const globexSoFar = Math.min(step, 3);
      await waitFor(
        () => acmeAt.length >= acmeSoFar && globexAt.length >= globexSoFar,
        `acme's write ${acmeSoFar} and globex's ${globexSoFar}`,
      );
      if (acmeAt.length === 6 && globexAt.length === 3) break;
      await waitFor(() => clock.held.length > 0, 'the next write to wait for its start');
      clock.advance(Math.min(...clock.held.map((wait) => wait.at)) - clock.now());
    }
    await cluster.idle();

    // Before: each replica paced alone, so acme's writes started three at a time.
    expect(acmeAt).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    // globex (creating its label, adding it, assigning) waits only on its own writes.
    expect(globexAt).toEqual([0, 1000, 2000]);
    for (const [repo, authors] of [[REPO, ['alice', 'bob', 'dave']]] as const) {
      const held = authors.map((_, i) => fake.issue(repo, i + 1).assignees);
      expect(held).toEqual([['alice'], ['bob'], ['dave']]);
    }
    expect(fake.issue(OTHER_REPO, b).assignees).toEqual(['carol']);
  });
});
