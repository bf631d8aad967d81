import { describe, expect, it } from 'vitest';
import { parseRepoConfig } from '../../src/config/parse-repo-config.js';

const h = 3_600_000;
const d = 24 * h;
const defaults = { staleAfterMs: 6 * h };

function peopleOf(people: unknown) {
  const result = parseRepoConfig({ people }, defaults);
  if (!result.ok) throw new Error(result.error);
  return result.config.people;
}

function errorOf(raw: unknown): string {
  const result = parseRepoConfig(raw, defaults);
  if (result.ok) throw new Error('the config was accepted');
  return result.error;
}

describe('people: in claims.yml (docs/protocol.md §16)', () => {
  it('without the block, people are on with the defaults', () => {
    expect(parseRepoConfig({}, defaults)).toMatchObject({
      ok: true,
      config: {
        people: {
          who: 'collaborators',
          labels: [],
          maxClaims: 0,
          staleAfterMs: 14 * d,
          remindAfterMs: 10 * d,
          expire: 'commands',
          handover: 'maintain',
          pinnedLabel: 'claim:pinned',
        },
      },
    });
  });

  it('enabled: false leaves no people settings at all: part two exactly', () => {
    const result = parseRepoConfig({ people: { enabled: false, who: 'anyone' } }, defaults);
    expect(result.ok && 'people' in result.config).toBe(false);
  });

  it('reads every key', () => {
    expect(
      peopleOf({
        enabled: true,
        who: 'anyone',
        labels: ['good first issue'],
        maxClaims: 3,
        staleAfter: '30d',
        remindAfter: '20d',
        expire: 'all',
        handover: 'triage',
        pinnedLabel: 'pinned',
      }),
    ).toEqual({
      who: 'anyone',
      labels: ['good first issue'],
      maxClaims: 3,
      staleAfterMs: 30 * d,
      remindAfterMs: 20 * d,
      expire: 'all',
      handover: 'triage',
      pinnedLabel: 'pinned',
    });
  });

  it.each([0, '0'])('remindAfter %j turns the reminder off', (remindAfter) => {
    expect(peopleOf({ remindAfter })?.remindAfterMs).toBe(0);
  });

  it.each([
    ['1d', 17 * h],
    ['7d', 5 * d],
    ['14d', 10 * d],
    ['90d', 10 * d],
  ])('a staleAfter of %s alone reminds before it expires', (staleAfter, remindAfterMs) => {
    expect(peopleOf({ staleAfter })).toMatchObject({ remindAfterMs });
  });

  it.each([
    [
      { remindAfter: '14d' },
      'people.remindAfter: must be below people.staleAfter (14d), or 0 for no reminder (got "14d")',
    ],
    [
      { staleAfter: '2d', remindAfter: '3d' },
      'people.remindAfter: must be below people.staleAfter (2d), or 0 for no reminder (got "3d")',
    ],
    [
      { staleAfter: '23h' },
      'people.staleAfter: must be a duration between 1d and 90d, such as 14d (got "23h")',
    ],
    [
      { staleAfter: '91d' },
      'people.staleAfter: must be a duration between 1d and 90d, such as 14d (got "91d")',
    ],
    [
      { remindAfter: 'soon' },
      'people.remindAfter: must be 0 (no reminder) or a duration below people.staleAfter, such as 10d (got "soon")',
    ],
    [
      { who: 'everyone' },
      'people.who: must be one of collaborators, members or anyone (got "everyone")',
    ],
    [
      { who: 'anyone' },
      'people.labels: must name at least one label with who: anyone: the issues outsiders may claim',
    ],
    [
      { maxClaims: 1.5 },
      'people.maxClaims: must be a whole number from 0 (no cap) to 1000 (got 1.5)',
    ],
    [
      { maxClaims: -1 },
      'people.maxClaims: must be a whole number from 0 (no cap) to 1000 (got -1)',
    ],
    [
      { expire: 'sometimes' },
      'people.expire: must be one of commands, all or never (got "sometimes")',
    ],
    [
      { handover: 'admin' },
      'people.handover: must be maintain or triage (the lowest role that may hand an agent’s issue over) (got "admin")',
    ],
    [{ enabled: 'yes' }, 'people.enabled: must be true or false (got "yes")'],
    [
      { labels: 'good first issue' },
      'people.labels: must be a list of label names such as ["good first issue"] (got "good first issue")',
    ],
    [
      { pinnedLabel: 'Status:In-Progress' },
      'people.pinnedLabel: must differ from the status labels (GitHub compares label names without case) (got "Status:In-Progress")',
    ],
    [{ remindAfer: '3d' }, 'people: unknown key "remindAfer" (did you mean "remindAfter"?)'],
  ])('refuses %j, naming the field', (people, message) => {
    expect(errorOf({ people })).toBe(message);
  });

  it('refuses a block that is not a mapping', () => {
    expect(errorOf({ people: true })).toBe(
      `people: must be a mapping of people's settings such as "who: collaborators" (got true)`,
    );
  });

  it('names every bad field at once, beside bad fields elsewhere', () => {
    expect(
      errorOf({ labels: 5, people: { who: 'all', maxClaims: 'two', staleAfter: 'x' } }).split('; '),
    ).toEqual([
      'labels: must be a mapping with inProgress, blocked and/or needsReview (got 5)',
      'people.who: must be one of collaborators, members or anyone (got "all")',
      'people.maxClaims: must be a whole number from 0 (no cap) to 1000 (got "two")',
      'people.staleAfter: must be a duration between 1d and 90d, such as 14d (got "x")',
    ]);
  });

  it('the pinned label may not be a custom status label either', () => {
    expect(errorOf({ labels: { blocked: 'pinned' }, people: { pinnedLabel: 'PINNED' } })).toBe(
      'people.pinnedLabel: must differ from the status labels (GitHub compares label names without case) (got "PINNED")',
    );
  });
});
