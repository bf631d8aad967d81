import { afterEach, describe, expect, it } from 'vitest';
import { parseClaimMarker } from '../../src/claims/marker.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  REPO,
  startCluster,
  threadReads,
} from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const AGENTS = Array.from({ length: 20 }, (_, i) => `agent-${String(i + 1).padStart(2, '0')}`);

describe('three replicas on one Redis', () => {
  it('20 sessions claiming one issue at once through different replicas leave one holder', async () => {
    cluster = await startCluster({
      replicas: 3,
      seed: (fake) => {
        for (const agent of AGENTS) fake.addUser(agent, { association: 'COLLABORATOR' });
      },
    });
    const { fake, replicas } = cluster;
    const n = fake.createIssue(REPO, { title: 'Contested' });
    const ids = AGENTS.map(
      (agent, i) => fake.addComment(REPO, n, { author: agent, body: claim(`s-${i + 1}`) }).id,
    );
    const deliveries = createdDeliveries(fake, ids);
    fake.clearRequests();

    const started = performance.now();
    const statuses = await Promise.all(
      deliveries.map((delivery, i) => cluster!.send(delivery, replicas[i % replicas.length]!)),
    );
    const answeredMs = performance.now() - started;
    await cluster.idle();
    const convergedMs = performance.now() - started;

    expect(statuses).toEqual(AGENTS.map(() => 200));
    const holder = Math.min(...ids);
    for (const id of ids) {
      const marker = parseClaimMarker(fake.comment(id)?.body ?? '');
      if (id === holder) expect(marker).toMatchObject({ stage: 'claimed' });
      else expect(marker).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    }
    expect(fake.issue(REPO, n).labels).toEqual(['status:in-progress']);
    expect(fake.issue(REPO, n).assignees).toEqual(['agent-01']);
    // Every write once: one label, one assignee, one edit per losing claim (the repository
    // has the label already).
    expect(fake.count('POST', `/repos/${REPO}/issues/${n}/labels`)).toBe(1);
    expect(fake.count('POST', `/repos/${REPO}/issues/${n}/assignees`)).toBe(1);
    const edits = fake.requests.filter((r) => r.method === 'PATCH').map((r) => r.path);
    expect(edits).toHaveLength(19);
    expect(new Set(edits).size).toBe(19);
    // Bursts coalesce: far fewer reconciles than deliveries.
    const reconciles = threadReads(fake, n);
    expect(reconciles).toBeLessThanOrEqual(4);

    console.info(
      `[replicas] 20 concurrent claims on 3 replicas: answered in ${Math.round(answeredMs)} ms, ` +
        `converged in ${(convergedMs / 1000).toFixed(1)} s, ${reconciles} reconciles, ` +
        `${fake.writes().filter((r) => !r.path.startsWith('/app/')).length} writes`,
    );
  });
});
