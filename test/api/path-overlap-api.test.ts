/**
 * The overlap rule of docs/protocol.md §10 through the claims API, as a caller meets it: an
 * entry covers itself and everything under it, written with or without its trailing `/`;
 * entries compare after percent-decoding and NFC; `%5C`, `%2F` and control characters are
 * refused (422 naming `paths`). The real server on the HTTP fake of GitHub.
 */
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/app-harness.js';
import {
  caller,
  claimBody,
  claimPath,
  fileHarness,
  withIssue,
  withTwoIssues,
} from './api-helpers.js';

/** One harness for the validation rows, closed when the file's tests are done. */
const sharedHarness = fileHarness();

/** `/repos/acme/widgets/paths?paths=…`, the list URL-encoded as one query value. */
function checkPath(paths: readonly string[]): string {
  return `/repos/${REPO}/paths?${new URLSearchParams({ paths: paths.join(',') })}`;
}

describe.concurrent('path overlaps through the claims API (docs/protocol.md §10)', () => {
  it.for([
    ['a directory without its /', 'docs/guide.md', 'docs', 'docs'],
    ['an NFD name', 'caf%C3%A9.md', 'cafe%CC%81.md', 'caf%C3%A9.md'],
    ['a file under a held directory written without /', 'docs', 'docs/guide.md', 'docs/guide.md'],
  ] as const)(
    'a claim on %s meets its holder: 409 PATHS_CLAIMED, nothing written',
    async ([, held, asked, shownAs], { onTestFinished }) => {
      const { fake, n1, n2, alice, bob } = await withTwoIssues(onTestFinished);
      expect((await bob.post(claimPath(n1), claimBody('s-bob', { paths: [held] }))).status).toBe(
        201,
      );
      const answer = await alice.post(claimPath(n2), claimBody('s-alice', { paths: [asked] }));
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('PATHS_CLAIMED');
      expect(
        answer.body.error.details.conflicts.map((c: { path: string; heldPath: string }) => [
          c.path,
          c.heldPath,
        ]),
      ).toEqual([[shownAs, held]]);
      expect(fake.comments(REPO, n2)).toHaveLength(0);

      // The check route agrees with the claim route.
      const check = await alice.get(checkPath([asked, 'docsx/a.md']));
      expect(check.status).toBe(200);
      expect(
        check.body.paths.map((p: { path: string; available: boolean; heldPath?: string }) => [
          p.path,
          p.available,
          p.heldPath,
        ]),
      ).toEqual([
        [shownAs, false, held],
        ['docsx/a.md', true, undefined],
      ]);
    },
  );

  it.each([
    ['src%5Ca.ts', '\\'],
    ['src%2Fa.ts', '%2F'],
    ['src/a%0A.ts', 'control character'],
    ['src/a%1B.ts', 'control character'],
  ])('paths [%j]: 422 INVALID_INPUT naming paths (%s), nothing written', async (entry, problem) => {
    const { fake, appUrl } = await sharedHarness();
    const n = fake.createIssue(REPO);
    const alice = caller(appUrl, fake, 'alice');
    const answer = await alice.post(claimPath(n), claimBody('s-1', { paths: [entry] }));
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(answer.body.error.details.fields)).toEqual(['paths']);
    expect(answer.body.error.details.fields.paths).toContain(problem);
    expect(fake.comments(REPO, n)).toHaveLength(0);
    const check = await alice.get(checkPath([entry]));
    expect(check.status).toBe(422);
    expect(Object.keys(check.body.error.details.fields)).toEqual(['paths']);
  });

  it('two spellings of one entry are one entry twice: 422', async () => {
    const { fake, appUrl } = await sharedHarness();
    const n = fake.createIssue(REPO);
    const answer = await caller(appUrl, fake, 'alice').post(
      claimPath(n),
      claimBody('s-1', { paths: ['caf%C3%A9.md', 'cafe%CC%81.md'] }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.fields.paths).toContain('listed twice');
  });

  it('an NFD entry is written in its NFC form', async ({ onTestFinished }) => {
    const { n, alice } = await withIssue(onTestFinished);
    const answer = await alice.post(claimPath(n), claimBody('s-1', { paths: ['lib/cafe%CC%81/'] }));
    expect(answer.status).toBe(201);
    expect(answer.body.claim.paths).toEqual(['lib/caf%C3%A9/']);
  });
});
