import { describe, expect, it } from 'vitest';
import type { HookDelivery } from '../../src/recovery/hook-delivery.js';
import { nextCheckpoint, pickRedeliveries } from '../../src/recovery/pick-redeliveries.js';

const SUBSCRIBED = new Set(['issue_comment.created', 'issue_comment.deleted', 'issues.labeled']);
const subscribed = (event: string, action: string | null) => SUBSCRIBED.has(`${event}.${action}`);

/** An attempt: `id`, guid, status code, `event.action`, redelivery or not. */
function attempt(id: number, guid: string, status: number, what = 'issue_comment.created') {
  const [event, action] = what.split('.') as [string, string];
  return {
    id,
    guid,
    status_code: status,
    event,
    action,
    redelivery: false,
    delivered_at: new Date(Date.UTC(2030, 0, 1, 0, 0, id)).toISOString(),
  } satisfies HookDelivery;
}

/** Newest first, as GitHub lists them. */
const newestFirst = (...attempts: HookDelivery[]) => [...attempts].sort((a, b) => b.id - a.id);

describe('which deliveries are redelivered', () => {
  it.each([
    ['a delivery that got a 2xx is not', [attempt(1, 'a', 200)], []],
    ['a delivery that was never answered is', [attempt(1, 'a', 0)], ['a']],
    ['a delivery answered 503 is', [attempt(1, 'a', 503)], ['a']],
    ['a delivery answered 3xx is', [attempt(1, 'a', 302)], ['a']],
    [
      'a failed delivery redelivered with success since is not',
      [attempt(1, 'a', 0), attempt(2, 'a', 202)],
      [],
    ],
    ['a delivery of an event the app ignores is not', [attempt(1, 'a', 0, 'issues.opened')], []],
    [
      'several failed ones: oldest first, once each',
      [attempt(3, 'b', 0), attempt(1, 'a', 0), attempt(4, 'a', 500), attempt(2, 'c', 200)],
      ['a', 'b'],
    ],
  ])('%s', (_name, listed, guids) => {
    const { candidates } = pickRedeliveries(newestFirst(...listed), subscribed);
    expect(candidates.map((d) => d.guid)).toEqual(guids);
  });

  it('the attempt redelivered is the first listed of its delivery', () => {
    const { candidates } = pickRedeliveries(
      newestFirst(attempt(5, 'a', 0), attempt(9, 'a', 0)),
      subscribed,
    );
    expect(candidates.map((d) => d.id)).toEqual([5]);
  });
});

describe('where the next run lists back to', () => {
  it('the newest delivery listed, when nothing is left over', () => {
    const listed = newestFirst(attempt(1, 'a', 0), attempt(7, 'b', 200));
    expect(nextCheckpoint(listed, [])).toEqual({
      id: 7,
      deliveredAt: new Date(listed[0]!.delivered_at),
    });
  });

  it('just before the oldest delivery left over, so the next run sees it again', () => {
    const listed = newestFirst(attempt(3, 'a', 0), attempt(5, 'b', 0), attempt(8, 'c', 200));
    expect(nextCheckpoint(listed, [listed[0]!, listed[1]!])?.id).toBe(4);
  });

  it('unchanged when nothing was listed', () => {
    expect(nextCheckpoint([], [])).toBeNull();
  });
});
