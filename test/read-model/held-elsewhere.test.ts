import { describe, expect, it } from 'vitest';
import { personClaimsElsewhere } from '../../src/read-model/held-elsewhere.js';
import { indexedPersonOf } from '../../src/read-model/indexed-claim-of.js';
import { MemoryStore } from '../../src/store/memory-store.js';

const NOW = new Date('2030-01-10T00:00:00Z');
const DAY = 24 * 3_600_000;
const key = (number: number, installationId = 7, repo = 'widgets') => ({
  installationId,
  owner: 'acme',
  repo,
  number,
});

async function personOn(
  store: MemoryStore,
  at: ReturnType<typeof key>,
  login: string,
  beatDaysAgo = 1,
) {
  await store.putOpenIssue({
    key: at,
    title: '',
    url: '',
    labels: [],
    assignees: [login],
    createdAt: '2030-01-01T00:00:00Z',
    updatedAt: '2030-01-01T00:00:00Z',
  });
  const heartbeat = new Date(NOW.getTime() - beatDaysAgo * DAY);
  const holder = {
    kind: 'person' as const,
    author: login,
    started: heartbeat,
    heartbeat,
    assignedBy: login,
    pinned: false,
    expires: true,
  };
  await store.setIssueClaim(at, indexedPersonOf(holder, 14 * DAY));
}

describe('people.maxClaims: the live person claims of a login elsewhere (docs/protocol.md §16)', () => {
  it('counts the other issues of the installation where the login holds a live person claim', async () => {
    const store = new MemoryStore();
    await personOn(store, key(1), 'alice');
    await personOn(store, key(2, 7, 'gears'), 'Alice');
    await personOn(store, key(3), 'alice', 20); // stale
    await personOn(store, key(4, 8), 'alice'); // another installation
    await personOn(store, key(5), 'bob');
    const held = await personClaimsElsewhere(store, key(1), ['ALICE', 'carol'], NOW);
    expect(Object.fromEntries(held)).toEqual({ alice: ['acme/gears#2'], carol: [] });
  });
});
