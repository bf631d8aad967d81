import { afterAll, describe, expect, it } from 'vitest';
import { parseSandboxArgs, startSandbox } from '../../sandbox/sandbox.js';
import type { Stack } from '../../sandbox/stack.js';
import { checkStory, playStory } from '../../sandbox/story.js';

let stack: Stack | undefined;
afterAll(async () => {
  await stack?.close();
});

describe('npm run sandbox', () => {
  it('the story ends as docs/protocol.md §4 says: race lost, stale swept, forgery ignored, label removal releases', async () => {
    stack = await startSandbox();
    const lines: string[] = [];
    const result = await playStory(stack, (line) => lines.push(line));

    expect(checkStory(result)).toEqual([]);
    expect(result.afterRace).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['alice'],
    });
    expect(result.bobFirst).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(result.bobFirst.reason).toContain(
      `lost to the older claim in comment ${result.alice.id}`,
    );
    expect(result.alice).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(result.alice.reason).toMatch(/^stale since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(result.notes).toHaveLength(1);
    expect(result.afterStale).toMatchObject({ labels: [], assignees: [] });
    expect(result.afterReclaim).toMatchObject({
      labels: ['status:in-progress'],
      assignees: ['bob'],
    });
    expect(result.forged).toMatchObject({
      author: 'mallory',
      stage: 'claimed',
      outcome: undefined,
    });
    expect(result.forgedCalls).toBe(0);
    expect(result.bobSecond).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(result.bobSecond.reason).toBe(
      'released by @maria, who removed the label status:in-progress',
    );
    expect(result.issue).toMatchObject({ state: 'open', labels: [], assignees: [] });
    // The timeline names every actor.
    const text = lines.join('\n');
    for (const actor of ['maria', 'alice', 'bob', 'mallory', 'sweep', 'app']) {
      expect(text).toContain(` ${actor} `);
    }
  }, 60_000);

  it('reads --once and --port, and refuses anything else', () => {
    expect(parseSandboxArgs([])).toEqual({ once: false, port: 0 });
    expect(parseSandboxArgs(['--once', '--port', '4000'])).toEqual({ once: true, port: 4000 });
    expect(() => parseSandboxArgs(['--port', 'x'])).toThrow(/--port needs a port number/);
    expect(() => parseSandboxArgs(['--verbose'])).toThrow(/unknown argument --verbose/);
  });
});
