/**
 * The client's `paths check` follows the path rules of docs/protocol.md §10: a directory
 * claimed without its `/` holds what lies under it, an NFD name meets its NFC holder, and an
 * encoded `\` is refused before anything is asked.
 */
import { describe, expect, it } from 'vitest';
import { claimArgs, REPO, worldsPerTest } from './harness.js';

const world = worldsPerTest();

describe('paths check by the rules of docs/protocol.md §10', () => {
  it('a directory held without its /, and an NFC name, are held for a check of what they cover', async () => {
    const h = await world({ app: true });
    const ref = h.issue();
    expect((await h.cli(claimArgs(ref, 'unit7', 'docs,caf%C3%A9.md'))).code).toBe(0);
    await h.app!.settle();

    const held = await h.cli(
      ['paths', 'check', 'docs/guide.md,cafe%CC%81.md,docsx/a.md', '--repo', REPO, '--json'],
      { login: 'bob' },
    );
    expect(held.code).toBe(1);
    expect(JSON.parse(held.stdout).paths).toMatchObject([
      { path: 'docs/guide.md', available: false, heldPath: 'docs', heldIn: ref },
      { path: 'caf%C3%A9.md', available: false, heldPath: 'caf%C3%A9.md', heldIn: ref },
      { path: 'docsx/a.md', available: true },
    ]);
  });

  it('an encoded backslash is refused before the app is asked', async () => {
    const h = await world({ app: true });
    const answer = await h.cli(['paths', 'check', 'src%5Ca.ts', '--repo', REPO], {
      login: 'bob',
    });
    expect(answer.code).not.toBe(0);
    expect(`${answer.stdout}${answer.stderr}`).toContain('%5C');
  });
});
