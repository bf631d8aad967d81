import { describe, expect, it } from 'vitest';
import type { BranchWork } from '../../src/claims/branch-work.js';
import { decide } from '../../src/claims/decide.js';
import type { ThreadComment } from '../../src/claims/types.js';
import type { IssueThread } from '../../src/github/thread.js';
import { claimChangesOf } from '../../src/read-model/claim-changes-of.js';
import {
  APP_LOGIN,
  type ClaimSpec,
  claim,
  DEFAULT_CONFIG,
  HOUR,
  NOW,
} from '../helpers/thread-builder.js';

const KEY = { installationId: 7, owner: 'acme', repo: 'widgets', number: 12 };

function changesFor(
  specs: ClaimSpec[],
  options: { open?: boolean; review?: ReadonlyMap<number, BranchWork | null> } = {},
) {
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
  const facts = {
    ...thread,
    appLogin: APP_LOGIN,
    hints: [],
    ...(options.review ? { review: options.review } : {}),
  };
  const plan = decide(facts, DEFAULT_CONFIG, NOW);
  return claimChangesOf(KEY, plan, { ...thread, meta }, NOW);
}

describe('what a reconcile adds to the claims board’s history', () => {
  it('a live holder and nobody finalised: nothing', () => {
    expect(
      changesFor([{ id: 1, by: 'alice', session: 'h:5f4dcc3b5aa7', updatedAgoMs: HOUR }]),
    ).toEqual([]);
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
    const changes = changesFor([...specs]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind, title: 'Fix <the> widget', at: NOW.toISOString() });
    expect(changes[0]!.by?.login ?? null).toBe(by);
  });

  it('an issue closed with its claim lists no change', () => {
    expect(changesFor([{ id: 1 }], { open: false })).toEqual([]);
  });

  it('a stale claim whose branch holds work: an expiry naming the work for review (§17)', () => {
    const work = { branch: 'feat/x', aheadBy: 3, head: 'a'.repeat(40), pull: 9 };
    const changes = changesFor([{ id: 1, updatedAgoMs: 7 * HOUR }], {
      review: new Map([[1, work]]),
    });
    expect(changes).toMatchObject([
      { kind: 'expiry', review: { branch: 'feat/x', aheadBy: 3, head: 'aaaaaaa', pull: 9 } },
    ]);
    expect(changesFor([{ id: 1, updatedAgoMs: 7 * HOUR }])[0]).not.toHaveProperty('review');
  });
});
