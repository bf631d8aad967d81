import { describe, expect, it } from 'vitest';
import { parseRepoConfig } from '../../src/config/parse-repo-config.js';

const m = 60_000;
const h = 60 * m;

function parsed(raw: unknown, staleAfterMs = 6 * h) {
  return parseRepoConfig(raw, { staleAfterMs });
}

describe('grace in claims.yml (docs/protocol.md §17)', () => {
  it.each([
    [{}, undefined],
    [{ grace: 0 }, undefined],
    [{ grace: '0s' }, undefined],
    [{ grace: '30m' }, 30 * m],
    [{ grace: '6h' }, 6 * h],
    [{ staleAfter: '2h', grace: '1h30m' }, 90 * m],
  ])('%j gives a grace of %s ms (absent: off)', (raw, graceMs) => {
    const result = parsed(raw);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.config.graceMs).toBe(graceMs);
  });

  it('a grace longer than the repository’s stale window is an error naming the field', () => {
    expect(parsed({ staleAfter: '1h', grace: '2h' })).toEqual({
      ok: false,
      error: 'grace: must be at most the stale window (1h), or 0 to turn it off (got "2h")',
    });
  });

  it('a grace longer than the operator’s stale window is an error too', () => {
    expect(parsed({ grace: '3h' }, 2 * h)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^grace: must be at most the stale window \(2h\)/),
    });
  });

  it.each([[1], ['1'], ['-5m'], ['soon'], [true], ['800h']])(
    'grace: %j is refused by field',
    (grace) => {
      const result = parsed({ grace });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error).toMatch(/^grace: must be a duration between 0s and 720h/);
    },
  );
});
