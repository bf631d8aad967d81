import { describe, expect, it } from 'vitest';
import { writePacing } from '../../src/github/write-pacing.js';
import { manualClock } from '../helpers/manual-clock.js';

/** Lets every promise callback that is ready run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Schedules a write of installation `id` on `group`, recording `label` when it starts. */
function write(
  group: ReturnType<typeof writePacing>['write'],
  id: string,
  label: string,
  started: string[],
  priority?: number,
) {
  return group
    .key(id)
    .schedule(priority === undefined ? {} : { priority }, () => started.push(label));
}

describe('write pacing', () => {
  it('starts the first write of an installation at once and the next one a spacing later', async () => {
    const clock = manualClock();
    const { write: group } = writePacing({ writeMs: 1000, clock });
    const started: string[] = [];

    void write(group, '7', 'a1', started);
    void write(group, '7', 'a2', started);
    void write(group, '7', 'a3', started);
    await settle();
    expect(started).toEqual(['a1']);
    expect(clock.held).toEqual([{ at: 1000, ms: 1000 }]);

    clock.advance(999);
    await settle();
    expect(started).toEqual(['a1']);
    clock.advance(1);
    await settle();
    expect(started).toEqual(['a1', 'a2']);
    expect(clock.held).toEqual([{ at: 2000, ms: 1000 }]);
    clock.advance(1000);
    await settle();
    expect(started).toEqual(['a1', 'a2', 'a3']);
    expect(clock.held).toEqual([]);
  });

  it('never makes one installation wait on another', async () => {
    const clock = manualClock();
    const { write: group } = writePacing({ writeMs: 1000, clock });
    const started: string[] = [];

    for (const id of ['7', '8'])
      for (const n of [1, 2]) void write(group, id, `${id}.${n}`, started);
    await settle();

    expect(started).toEqual(['7.1', '8.1']);
    expect(clock.held).toEqual([
      { at: 1000, ms: 1000 },
      { at: 1000, ms: 1000 },
    ]);
    clock.advance(1000);
    await settle();
    expect(started).toEqual(['7.1', '8.1', '7.2', '8.2']);
  });

  it('waits only for what is left of the spacing after a quiet spell', async () => {
    const clock = manualClock();
    const { write: group } = writePacing({ writeMs: 1000, clock });
    const started: string[] = [];
    await write(group, '7', 'first', started);
    clock.advance(400);

    void write(group, '7', 'second', started);
    await settle();

    expect(clock.held).toEqual([{ at: 1000, ms: 600 }]);
    clock.advance(600);
    await settle();
    expect(started).toEqual(['first', 'second']);
  });

  it('spaces writes that notify three times as far apart, unless told otherwise', async () => {
    const clock = manualClock();
    const started: string[] = [];
    const paced = writePacing({ writeMs: 1000, clock });
    await write(paced.notifications, '7', 'c1', started);
    void write(paced.notifications, '7', 'c2', started);
    await settle();
    expect(clock.held).toEqual([{ at: 3000, ms: 3000 }]);

    const own = writePacing({ writeMs: 1000, notifyingWriteMs: 1500, clock });
    await write(own.notifications, '7', 'd1', started);
    void write(own.notifications, '7', 'd2', started);
    await settle();
    expect(clock.held).toContainEqual({ at: 1500, ms: 1500 });
  });

  it('lets a retried request (priority 0) go before first attempts, still paced', async () => {
    const clock = manualClock();
    const { write: group } = writePacing({ writeMs: 1000, clock });
    const started: string[] = [];
    void write(group, '7', 'first', started);
    void write(group, '7', 'queued', started);
    void write(group, '7', 'retry', started, 0);
    await settle();
    expect(started).toEqual(['first']);

    clock.advance(1000);
    await settle();
    expect(started).toEqual(['first', 'retry']);
    clock.advance(1000);
    await settle();
    expect(started).toEqual(['first', 'retry', 'queued']);
  });

  it('with a spacing of 0, runs every write at once', async () => {
    const clock = manualClock();
    const { write: group } = writePacing({ writeMs: 0, clock });
    const started: string[] = [];
    await Promise.all(['a', 'b', 'c'].map((label) => write(group, '7', label, started)));
    expect(started).toEqual(['a', 'b', 'c']);
    expect(clock.held).toEqual([]);
  });

  it('hands back what the job returns, and its error', async () => {
    const { write: group } = writePacing({ writeMs: 0 });
    await expect(group.key('7').schedule({}, () => 42)).resolves.toBe(42);
    await expect(
      group.key('7').schedule({}, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
  });
});
