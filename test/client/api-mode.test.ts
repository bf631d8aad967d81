/**
 * API mode: with CLAIM_WARDEN_URL naming the app, claim, status and release speak the claims
 * API (docs/protocol.md §8) and answer exactly as direct mode does. Each script runs twice:
 * once against GitHub alone (direct), once through the real app's server on the same fake
 * GitHub (API), on the same machine (so the same identity tags).
 */
import { describe, expect, it } from 'vitest';
import { type Harness, worldsPerTest } from './harness.js';

const world = worldsPerTest();

/** Two worlds on one machine: GitHub alone, and GitHub with the app in front. */
async function bothModes(): Promise<{ direct: Harness; api: Harness }> {
  const direct = await world();
  const api = await world({ app: true, sameMachineAs: direct });
  return { direct, api };
}

/** Times, ports and comment ids differ between two worlds; nothing else may. */
function normalise(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<time>')
      .replace(/127\.0\.0\.1:\d+/g, '<host>')
      .replace(/"(commentId|finalised)":\d+/g, '"$1":0')
      .replace(/comment[ -]\d+/g, 'comment <id>'),
  );
}

type Step = readonly [login: string, args: readonly string[]];

/** Runs the steps through the CLI with --json; returns each JSON answer and exit code. */
async function play(h: Harness, steps: readonly Step[]) {
  const results: { code: number; json: Record<string, unknown> }[] = [];
  for (const [login, args] of steps) {
    const { code, stdout } = await h.cli([...args, '--json'], { login });
    const json = JSON.parse(stdout) as Record<string, unknown>;
    expect(json.exitCode, JSON.stringify(json)).toBe(code);
    results.push({ code, json });
  }
  return results;
}

function script(ref: string, closed: string): Step[] {
  // The branch never names the session: the text guard would refuse it (docs/agents.md).
  const claim = (session: string, ...extra: string[]) => {
    const [lane, branch] = session === 'unit7' ? ['lane-a', 'feat/x'] : ['lane-b', 'feat/y'];
    return ['claim', ref, '--session', session, '--lane', lane, '--branch', branch, ...extra];
  };
  return [
    ['alice', claim('unit7')],
    ['bob', claim('other')],
    ['alice', ['status', ref, '--session', 'unit7']],
    [
      'alice',
      ['status', ref, '--session', 'unit7', '--stage', 'blocked', '--note', 'waiting on CI'],
    ],
    ['bob', ['status', ref, '--session', 'other']],
    ['bob', ['status', ref, '--session', 'other', '--stage', 'review']],
    ['alice', claim('unit7')],
    ['alice', ['release', ref, '--session', 'unit7', '--outcome', 'landed']],
    ['bob', ['release', ref, '--session', 'other', '--outcome', 'landed']],
    ['alice', ['status', ref, '--session', 'unit7']],
    ['alice', claim('unit7').map((a) => (a === ref ? closed : a))],
    ['alice', claim('unit7', '--paths', 'src/a.ts,../etc')],
    ['alice', ['claim', ref, '--session', 'unit7', '--lane', 'l', '--branch', 'bad branch']],
  ];
}

describe('API mode answers as direct mode does', () => {
  it('claim held, claim refused, status, resume, release and the refusals: same output, same exit code', async () => {
    const { direct, api } = await bothModes();
    const runs = [];
    for (const h of [direct, api]) {
      const ref = h.issue({ title: 'Fix the widget' });
      const closed = h.issue({ state: 'closed', stateReason: 'not_planned' });
      runs.push(await play(h, script(ref, closed)));
    }
    const [viaGitHub, viaApp] = runs;
    expect(viaGitHub!.map((r) => r.code)).toEqual([0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 2, 2]);
    expect(normalise(viaApp)).toEqual(normalise(viaGitHub));
    expect(viaApp!.map((r) => r.json.action ?? r.json.reason)).toEqual([
      'claimed',
      'held',
      'reported',
      'updated',
      'held',
      'held',
      'resumed',
      'released',
      'none',
      'released',
      'closed',
      undefined,
      undefined,
    ]);
  });
});
