import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BoardView } from '../../src/board/board-view.js';
import { renderBoardPage } from '../../src/board/render-page.js';

const AT = '2026-12-01T09:00:00.000Z';

function viewWith(text: string, url = 'https://github.com/acme/widgets/issues/1'): BoardView {
  const claim = {
    repo: 'acme/widgets',
    number: 1,
    title: text,
    url,
    kind: 'agent' as const,
    commentId: 5,
    commentUrl: url,
    holder: text,
    avatarUrl: url,
    session: text,
    branch: text,
    stage: text,
    paths: [text],
    started: AT,
    heartbeat: AT,
    staleAt: '2026-12-01T15:00:00.001Z',
  };
  return {
    generatedAt: AT,
    user: { login: text, avatarUrl: url },
    filters: { repo: '', stage: text, holder: text },
    options: { repos: ['acme/widgets'], stages: [text], holders: [text] },
    claims: [claim],
    repos: [{ repo: 'acme/widgets', live: 1, claimable: null }],
    changes: [
      {
        id: '5:loss',
        kind: 'loss',
        at: AT,
        repo: 'acme/widgets',
        number: 1,
        title: text,
        url,
        commentId: 6,
        author: text,
        session: text,
        by: { login: text, session: text },
      },
    ],
  };
}

const tags = (html: string) => html.split('<').length;

describe('the board page', () => {
  it('user text never adds markup: any title, login, branch or path renders as text', () => {
    // A path's slashes are where it may wrap (one <wbr> and one more name each): the markup
    // is compared with that of a plain text of as many slashes.
    const plain = (text: string) =>
      tags(renderBoardPage(viewWith(`x${'/x'.repeat(text.split('/').length - 1)}`), 'token', '/'));
    fc.assert(
      fc.property(fc.string(), (text) => {
        const html = renderBoardPage(viewWith(text), 'token', '/');
        expect(tags(html)).toBe(plain(text));
      }),
    );
  });

  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['"><img src=x onerror=alert(1)>', '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'],
    ["it's & more", 'it&#39;s &amp; more'],
  ])('escapes %s', (text, escaped) => {
    const html = renderBoardPage(viewWith(text), 'token', '/');
    expect(html).toContain(escaped);
    expect(html).not.toContain(text);
  });

  it('links only to http(s) addresses', () => {
    const html = renderBoardPage(viewWith('x', 'javascript:alert(1)'), 'token', '/');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="#"');
  });

  it('draws the time to stale as a meter of the stale window', () => {
    const html = renderBoardPage(viewWith('x'), 'token', '/');
    expect(html).toContain('<meter min="0" max="21600001"');
    expect(html).toContain('value="21600001"');
    expect(html).toContain('6 h left');
  });
});
