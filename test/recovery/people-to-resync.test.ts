import { describe, expect, it } from 'vitest';
import type { IndexedEntry } from '../../src/store/store.js';
import { resyncedNumbers, unexplainedAssignees } from '../../src/sweep/people-to-resync.js';

const URL = 'https://api.github.com/repos/acme/widgets/issues';
const REPO = { installationId: 1, owner: 'acme', repo: 'widgets' };

function comment(n: number, body: string, login = 'bob', type = 'User') {
  return { body, issue_url: `${URL}/${n}`, user: { login, type } };
}

describe('resyncedNumbers (docs/protocol.md §4, §16)', () => {
  it('a marker is its issue, a person’s command the issue negated, the rest 0', () => {
    const marker =
      '<!-- praetor-claim v=1 session=s lane=l branch=b started=2026-01-01T00:00:00Z updated=2026-01-01T00:00:00Z stage=claimed -->';
    const pick = resyncedNumbers('claim-warden');
    expect(
      pick([
        comment(1, marker),
        comment(2, '/claim'),
        comment(3, '@claim-warden release'),
        comment(4, 'is anyone on this?'),
        comment(5, '/claim', 'helper[bot]', 'Bot'),
        comment(6, '/claim', 'Copilot', 'Bot'),
        comment(7, '> /claim'),
      ]),
    ).toEqual([1, -2, -3, 0, 0, 0, 0]);
  });
});

function entry(
  number: number,
  assignees: string[],
  options: { author?: string; updatedAt?: string } = {},
): IndexedEntry {
  return {
    issue: {
      key: { ...REPO, number },
      title: 't',
      url: `${URL}/${number}`,
      labels: [],
      assignees,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: options.updatedAt ?? '2026-01-02T00:00:00Z',
    },
    claim: options.author ? ({ author: options.author } as IndexedEntry['claim']) : null,
  };
}

describe('unexplainedAssignees (docs/protocol.md §16)', () => {
  const entries = [
    entry(1, ['bob']),
    entry(2, ['alice'], { author: 'Alice' }),
    entry(3, []),
    entry(4, ['renovate[bot]']),
    entry(5, ['carol'], { updatedAt: '2025-12-01T00:00:00Z' }),
    entry(6, ['dana']),
  ];
  const store = {
    openIssues: async () => entries,
    appAssignees: async (key: { number: number }) => (key.number === 6 ? ['dana'] : []),
  };

  it('an assignee no indexed claim or remembered assignment accounts for, updated since', async () => {
    expect(await unexplainedAssignees(store, REPO, new Date('2026-01-01T00:00:00Z'))).toEqual([1]);
  });

  it('with no checkpoint (a first pass) however old the issue', async () => {
    expect(await unexplainedAssignees(store, REPO, null)).toEqual([1, 5]);
  });

  it('another installation’s issues are not its own', async () => {
    expect(await unexplainedAssignees(store, { ...REPO, installationId: 2 }, null)).toEqual([]);
  });
});
