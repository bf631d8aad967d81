import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-github/fake-github.js';
import { type Cluster, claim, createdDeliveries, REPO, startCluster } from './harness.js';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const OTHER_REPO = 'globex/gadgets';

/** The writes to one repository (token minting is auth, not a write). */
function writesTo(requests: readonly RecordedRequest[], repo: string): RecordedRequest[] {
  return requests.filter(
    (r) => r.method !== 'GET' && r.method !== 'HEAD' && r.path.startsWith(`/repos/${repo}/`),
  );
}

function gapsMs(requests: readonly RecordedRequest[]): number[] {
  return requests.slice(1).map((r, i) => r.at.getTime() - requests[i]!.at.getTime());
}

describe('installations do not wait on each other', () => {
  it('two installations’ writes proceed in parallel; one installation’s stay paced', async () => {
    cluster = await startCluster({
      replicas: 1,
      label: false,
      seed: (fake) => {
        fake.addInstallation({ id: 8, account: 'globex', repos: [OTHER_REPO] });
        fake.addUser('carol', { association: 'MEMBER' });
      },
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
    await cluster.idle();

    // Each claim costs three writes: create the label, add it, assign.
    const acme = writesTo(fake.requests, REPO);
    const globex = writesTo(fake.requests, OTHER_REPO);
    expect(acme).toHaveLength(3);
    expect(globex).toHaveLength(3);
    const apart = Math.abs(acme[0]!.at.getTime() - globex[0]!.at.getTime());
    expect(apart).toBeLessThan(300);
    // Within one installation, GitHub's advice holds: writes at least a second apart.
    for (const gap of [...gapsMs(acme), ...gapsMs(globex)]) expect(gap).toBeGreaterThanOrEqual(850);
    console.info(
      `[replicas] two installations: first writes ${apart} ms apart; ` +
        `gaps within one: ${gapsMs(acme).join(', ')} ms and ${gapsMs(globex).join(', ')} ms`,
    );
  });
});
