import { describe, expect, it } from 'vitest';
import { boardRecordsOf } from '../../src/board/board-records-of.js';
import { decide } from '../../src/claims/decide.js';
import type { ThreadComment } from '../../src/claims/types.js';
import type { IssueThread } from '../../src/github/thread.js';
import {
  APP_LOGIN,
  type ClaimSpec,
  claim,
  DEFAULT_CONFIG,
  HOUR,
  NOW,
} from '../helpers/thread-builder.js';

const KEY = { installationId: 7, owner: 'acme', repo: 'widgets', number: 12 };

function recordsFor(specs: ClaimSpec[], options: { open?: boolean } = {}) {
  const comments: ThreadComment[] = specs.map(claim);
  const thread: IssueThread = {
    open: options.open ?? true,
    stateReason: options.open === false ? 'completed' : null,
    isPullRequest: false,
    labels: [],
    assignees: [],
    comments,
  };
  const meta = {
    title: 'Fix <the> widget',
    url: 'https://github.com/acme/widgets/issues/12',
    createdAt: '2030-01-01T00:00:00Z',
    updatedAt: '2030-01-01T00:00:00Z',
  };
  const plan = decide({ ...thread, appLogin: APP_LOGIN, hints: [] }, DEFAULT_CONFIG, NOW);
  return boardRecordsOf(KEY, plan, { ...thread, meta }, DEFAULT_CONFIG.staleAfterMs, NOW);
}

describe('what a reconcile tells the claims board', () => {
  it('the holder becomes the issue row, with its heartbeat and the moment it goes stale', () => {
    const { summary, changes } = recordsFor([
      { id: 1, by: 'alice', session: 'h:5f4dcc3b5aa7', stage: 'implementing', updatedAgoMs: HOUR },
    ]);
    expect(changes).toEqual([]);
    expect(summary).toMatchObject({
      repo: 'acme/widgets',
      number: 12,
      title: 'Fix <the> widget',
      holder: 'alice',
      session: 'h:5f4dcc3b5aa7',
      branch: 'feat/1',
      stage: 'implementing',
      heartbeat: new Date(NOW.getTime() - HOUR).toISOString(),
      staleAt: new Date(NOW.getTime() + 5 * HOUR + 1).toISOString(),
    });
  });

  it.each([
    [
      'a stale claim and nobody else: an expiry',
      [{ id: 1, updatedAgoMs: 7 * HOUR }],
      'expiry',
      null,
    ],
    [
      'a stale claim and a fresh one: a takeover by the fresh holder',
      [
        { id: 1, updatedAgoMs: 7 * HOUR },
        { id: 2, by: 'bob' },
      ],
      'takeover',
      'bob',
    ],
    [
      'a younger live claim: a loss to the older holder',
      [
        { id: 1, by: 'bob' },
        { id: 2, by: 'alice' },
      ],
      'loss',
      'bob',
    ],
  ] as const)('%s', (_, specs, kind, by) => {
    const { changes } = recordsFor([...specs]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind, title: 'Fix <the> widget', at: NOW.toISOString() });
    expect(changes[0]!.by?.login ?? null).toBe(by);
  });

  it('an issue closed with its claim has no row and lists no change', () => {
    const { summary, changes } = recordsFor([{ id: 1 }], { open: false });
    expect(summary).toBeNull();
    expect(changes).toEqual([]);
  });
});
