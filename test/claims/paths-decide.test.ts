import { describe, expect, it } from 'vitest';
import { decide } from '../../src/claims/decide.js';
import { agentHolder } from '../../src/claims/holder-summary.js';
import type { PathHolderFact } from '../../src/claims/issue-facts.js';
import { parseClaimMarker } from '../../src/claims/marker.js';
import { renderPathLine } from '../../src/claims/paths.js';
import { pathsNoteTag } from '../../src/claims/paths-note.js';
import type { Action } from '../../src/claims/plan.js';
import type { ThreadComment } from '../../src/claims/types.js';
import {
  APP_LOGIN,
  type ClaimSpec,
  claim,
  DEFAULT_CONFIG,
  facts,
  NOW,
} from '../helpers/thread-builder.js';

/* decide() and path claims (docs/protocol.md §10): who keeps, who loses, and what it says. */

/** A claim comment whose second line is `line` (a path line, or anything else). */
function claimWithLine(spec: ClaimSpec, line: string): ThreadComment {
  const base = claim(spec);
  const [marker, ...rest] = base.body.split('\n');
  return { ...base, body: [marker, line, ...rest].join('\n') };
}

const withPaths = (spec: ClaimSpec, paths: string[]) => claimWithLine(spec, renderPathLine(paths));

const elsewhere = (commentId: number, paths: string[]): PathHolderFact => ({
  issue: 'acme/widgets#5',
  commentId,
  session: 'h:aaaaaaaaaaaa',
  paths,
});

function finalised(actions: readonly Action[]) {
  return actions.flatMap((a) =>
    a.kind === 'finalise'
      ? [{ id: a.commentId, reason: a.reason, outcome: a.outcome, body: a.body }]
      : [],
  );
}

describe('decide with path holders elsewhere (docs/protocol.md §10)', () => {
  it('the holder names its paths, and a claim without a path line holds none', () => {
    const plan = decide(
      facts({ comments: [withPaths({ id: 10 }, ['src/a.ts', 'docs/'])] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.holder).toMatchObject({
      commentId: 10,
      paths: ['src/a.ts', 'docs/'],
      branch: 'feat/10',
    });
    expect(agentHolder(plan.holder)?.pathProblem).toBeUndefined();
    expect(
      agentHolder(decide(facts({ comments: [claim({ id: 11 })] }), DEFAULT_CONFIG, NOW).holder)
        ?.paths,
    ).toEqual([]);
  });

  it('an invalid path line: the claim still holds its issue, with no paths and the problem named', () => {
    const plan = decide(
      facts({ comments: [claimWithLine({ id: 10 }, '<!-- claim-paths v=1 paths=../x -->')] }),
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.holder).toMatchObject({ commentId: 10, paths: [] });
    expect(agentHolder(plan.holder)?.pathProblem).toMatch(/\. or \.\. segment/);
    expect(finalised(plan.actions)).toEqual([]);
  });

  it('a claim overlapping an older holder elsewhere is finalised as abandoned, with the reason and a note', () => {
    const lost = decide(
      {
        ...facts({ comments: [withPaths({ id: 2000, by: 'bob' }, ['src/a.ts', 'docs/guide.md'])] }),
        pathHolders: [elsewhere(1234, ['src/a.ts', 'docs/', 'lib/'])],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(lost.holder).toBeNull();
    const [only] = finalised(lost.actions);
    expect(only).toMatchObject({ id: 2000, reason: 'paths', outcome: 'abandoned' });
    expect(parseClaimMarker(only!.body)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(only!.body).toContain(
      '- Reason: paths held by acme/widgets#5 (comment 1234, session h:aaaaaaaaaaaa): src/a.ts, docs/',
    );
    const note = lost.actions.find((a) => a.kind === 'post-note');
    expect(note).toMatchObject({ forCommentId: 2000 });
    expect(note?.kind === 'post-note' && note.body).toMatch(
      /^<!-- claim-warden note=paths comment=2000 -->\n@bob /,
    );
    // The issue is free: no status label, no assignee is added.
    expect(lost.actions.some((a) => a.kind === 'add-label' || a.kind === 'assign')).toBe(false);
  });

  it.each([
    ['a younger holder elsewhere', elsewhere(3000, ['src/a.ts']), 2000],
    ['an older holder of other paths', elsewhere(1000, ['lib/b.ts', 'srcs/']), 2000],
    [
      'an older holder of a name that merely starts the same',
      elsewhere(1000, ['src.ts', 'srcs']),
      2000,
    ],
  ])('keeps its paths next to %s', (_, other, holder) => {
    const plan = decide(
      { ...facts({ comments: [withPaths({ id: 2000 }, ['src/'])] }), pathHolders: [other] },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(agentHolder(plan.holder)?.commentId).toBe(holder);
    expect(finalised(plan.actions)).toEqual([]);
  });

  it('loses its paths to an older holder of the directory written without its / (§10)', () => {
    const plan = decide(
      {
        ...facts({ comments: [withPaths({ id: 2000 }, ['src/a.ts'])] }),
        pathHolders: [elsewhere(1000, ['src'])],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(finalised(plan.actions)[0]!.body).toContain(
      'paths held by acme/widgets#5 (comment 1000, session h:aaaaaaaaaaaa): src',
    );
  });

  it('names the oldest of several holders it overlaps', () => {
    const plan = decide(
      {
        ...facts({ comments: [withPaths({ id: 2000 }, ['src/a.ts', 'b.ts'])] }),
        pathHolders: [
          { ...elsewhere(1500, ['b.ts']), issue: 'acme/widgets#7' },
          elsewhere(1200, ['src/']),
        ],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(finalised(plan.actions)[0]!.body).toContain(
      'paths held by acme/widgets#5 (comment 1200, session h:aaaaaaaaaaaa): src/',
    );
  });

  it('when the oldest claim loses its paths, the next claim of the issue holds it', () => {
    const plan = decide(
      {
        ...facts({
          comments: [
            withPaths({ id: 2000, by: 'bob' }, ['src/a.ts']),
            claim({ id: 2001, by: 'carol' }),
          ],
        }),
        pathHolders: [elsewhere(1000, ['src/'])],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.holder).toMatchObject({ commentId: 2001, author: 'carol' });
    expect(finalised(plan.actions).map((f) => `${f.id} ${f.reason}`)).toEqual(['2000 paths']);
  });

  it('a later claim of the issue loses to the holder as usual, whatever its paths', () => {
    const plan = decide(
      {
        ...facts({
          comments: [claim({ id: 2000 }), withPaths({ id: 2001, by: 'carol' }, ['src/a.ts'])],
        }),
        pathHolders: [elsewhere(1000, ['src/'])],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(agentHolder(plan.holder)?.commentId).toBe(2000);
    expect(finalised(plan.actions).map((f) => `${f.id} ${f.reason}`)).toEqual(['2001 lost']);
  });

  it('the note puts paths in code spans, so a path beginning with @ mentions nobody', () => {
    const plan = decide(
      {
        ...facts({ comments: [withPaths({ id: 2000, by: 'bob' }, ['@alice/x.ts'])] }),
        pathHolders: [elsewhere(1000, ['@alice/'])],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    const note = plan.actions.find((a) => a.kind === 'post-note');
    const text = note?.kind === 'post-note' ? note.body : '';
    expect(text).toContain('`@alice/`');
    expect(text.match(/@\w+/g)).toEqual(['@bob', '@alice']);
    expect(text).not.toMatch(/(^|[^`])@alice/);
  });

  it('posts the note once: a note already on the thread is not posted again', () => {
    const note: ThreadComment = {
      id: 2002,
      author: APP_LOGIN,
      authorAssociation: 'NONE',
      body: `${pathsNoteTag(2000)}\n@bob …`,
      createdAt: NOW,
      updatedAt: NOW,
    };
    const plan = decide(
      {
        ...facts({ comments: [withPaths({ id: 2000, by: 'bob' }, ['src/a.ts']), note] }),
        pathHolders: [elsewhere(1000, ['src/'])],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(plan.actions.filter((a) => a.kind === 'post-note')).toEqual([]);
  });

  it('on a closed issue the claim lands as usual; paths are not weighed', () => {
    const plan = decide(
      {
        ...facts({
          open: false,
          stateReason: 'completed',
          comments: [withPaths({ id: 2000 }, ['src/a.ts'])],
        }),
        pathHolders: [elsewhere(1000, ['src/'])],
      },
      DEFAULT_CONFIG,
      NOW,
    );
    expect(finalised(plan.actions).map((f) => `${f.id} ${f.reason} ${f.outcome}`)).toEqual([
      '2000 closed landed',
    ]);
  });
});
