import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeMiddleware, Webhooks } from '@octokit/webhooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvedPath } from '../../src/app/webhook-door.js';

// Issue 20 #2: the door must take for a webhook exactly what @octokit/webhooks' middleware
// takes for one. Checked against the real middleware on request targets built from the
// pieces that resolve differently from how they read.
const PATH = '/api/github/webhooks';
const middleware = createNodeMiddleware(new Webhooks({ secret: 'resolution' }), { path: PATH });

/** Whether the middleware matches `url` as its path (a GET on it is its own 404). */
async function middlewareMatches(url: string): Promise<boolean> {
  let status = 0;
  const res = {
    writeHead(code: number) {
      status = code;
      return { end() {} };
    },
  } as unknown as ServerResponse;
  const req = { url, method: 'GET', headers: {} } as unknown as IncomingMessage;
  await middleware(req, res, () => {});
  return status === 404;
}

// Separators and spellings that resolve to `/` and to the segment, and some that do not.
const SEPARATORS = ['/', '\\', '/./', '/%2e/', '/%2E/', '/x/../', '/x/%2e%2E/', '//', '%2f', '/;/'];
const SEGMENTS = {
  api: ['api', 'API', 'ap%69'],
  github: ['github', 'git%68ub'],
  webhooks: ['webhooks', 'Webhooks', 'webhooks%20', 'webhook'],
};
const TAILS = ['', '/', '//', '?x=1', '#x', '?', '#', '/.', '/..', '/x/..', '/%2e'];
const HEADS = ['', '/.', 'http://example.test', 'http://example.test:8080', '/..'];

// Mostly GitHub's own spelling, so that many targets do resolve to the webhook path.
const mostly = (usual: string, others: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(usual), weight: 3 },
    { arbitrary: fc.constantFrom(...others), weight: 2 },
  );
const spelling = (segment: keyof typeof SEGMENTS) =>
  fc.tuple(mostly('/', SEPARATORS), mostly(segment, SEGMENTS[segment]));
const targets = fc
  .tuple(
    fc.constantFrom(...HEADS),
    spelling('api'),
    spelling('github'),
    spelling('webhooks'),
    fc.constantFrom(...TAILS),
  )
  .map(([head, ...rest]) => {
    const tail = rest.pop() as string;
    const parts = rest as Array<[string, string]>;
    return head + parts.map(([sep, segment]) => sep + segment).join('') + tail;
  });

describe('which requests the webhook door takes for webhooks', () => {
  it('exactly the ones @octokit/webhooks would read as webhooks, however they are spelt', async () => {
    await fc.assert(
      fc.asyncProperty(targets, async (url) => {
        expect(resolvedPath(url) === PATH).toBe(await middlewareMatches(url));
      }),
      { numRuns: 2000, examples: [['/api/github/./webhooks'], ['/api/github/x/../webhooks']] },
    );
  });
});
