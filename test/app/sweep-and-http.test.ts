import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { claim } from '../helpers/thread-builder.js';
import {
  calls,
  commentCreated,
  expectWrites,
  finalised,
  HOUR,
  IN_PROGRESS,
  INSTALLATION,
  issuePath,
  mockNoBranchWork,
  mockThread,
  NOW,
  OWNER,
  REPO,
  reads,
  useTestApp,
  write,
  writes,
} from './harness.js';

const app = useTestApp();

const keyOf = (number: number) => ({
  installationId: INSTALLATION,
  owner: OWNER,
  repo: REPO,
  number,
});

describe('the sweep', () => {
  it('reconciles exactly the issue whose deadline passed and finalises its stale claim', async () => {
    // Two holders: alice's heartbeat is an hour old (deadline in 5 h), bob's is fresh (6 h).
    const alice = claim({ id: 11, by: 'alice', session: 'sess-alice', updatedAgoMs: HOUR });
    const bob = claim({ id: 21, by: 'bob' });
    mockThread({ issue: 1, comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    mockThread({
      issue: 2,
      comments: [bob],
      labels: [IN_PROGRESS],
      assignees: ['bob'],
      token: false,
      config: 'cached',
    });
    await app().receive(commentCreated({ comment: alice }));
    await app().receive(commentCreated({ comment: bob, issue: { issue: 2 } }));
    await app().settle();
    expect(writes()).toEqual([]);

    // Half a minute past alice's deadline, long before bob's.
    const later = new Date(NOW.getTime() + 5 * HOUR + 30_000);
    app().setNow(later);
    mockThread({
      issue: 1,
      comments: [alice],
      labels: [IN_PROGRESS],
      assignees: ['alice'],
      token: false,
      config: 'cached',
    });
    mockNoBranchWork('feat/11');
    const expected = expectWrites(
      write.note(1, expectMention('alice')),
      write.finalise(11, finalised(alice, 'abandoned', 'stale since 2026-11-30T17:00:00Z', later)),
      write.removeLabel(1, IN_PROGRESS),
      write.unassign(1, 'alice'),
    );

    const result = await app().warden.sweep();
    await app().settle();

    expect(result).toMatchObject({ ran: true, queued: 1 });
    expect(writes()).toEqual(expected);
    expect(reads(issuePath(1))).toBe(2);
    expect(reads(issuePath(2))).toBe(1);
    // Issue 1 has no holder left, so nothing is due there; issue 2 still waits for its deadline.
    expect(await app().store.dueIssues(new Date(NOW.getTime() + 7 * HOUR), 10)).toEqual([keyOf(2)]);
  });

  it('a sweep with nothing due makes no GitHub call', async () => {
    await app().store.setDeadline(keyOf(1), new Date(NOW.getTime() + HOUR));

    const result = await app().warden.sweep();
    await app().settle();

    expect(result).toMatchObject({ ran: true, queued: 0 });
    expect(calls).toEqual([]);
  });
});

describe('GET /health and GET /metrics', () => {
  let server: Server | undefined;

  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** Serves warden.handleHttp on loopback; 404 for what it does not handle. */
  async function serve(): Promise<string> {
    const warden = app().warden;
    server = createServer((req, res) => {
      warden.handleHttp(req, res).then((handled) => {
        if (!handled) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('GET /health answers 200 with the store reachable', async () => {
    const base = await serve();

    const response = await fetch(`${base}/health`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ status: 'ok', store: true });
  });

  it('GET /health answers 503 when the store does not', async () => {
    const base = await serve();
    app().store.ping = async () => false;

    const response = await fetch(`${base}/health`);

    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', store: false });
  });

  it('GET /metrics exposes webhooks, reconciles and GitHub requests in Prometheus format', async () => {
    const alice = claim({ id: 11, by: 'alice' });
    mockThread({ comments: [alice], labels: [IN_PROGRESS], assignees: ['alice'] });
    await app().receive(commentCreated({ comment: alice }));
    await app().settle();
    const base = await serve();

    const response = await fetch(`${base}/metrics`);
    const text = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toContain(
      'claims_webhooks_total{event="issue_comment.created",result="reconcile"} 1',
    );
    expect(text).toContain('claims_reconciles_total{outcome="applied"} 1');
    expect(text).toContain(
      'claims_github_requests_total{method="GET",route="/repos/{owner}/{repo}/issues/{issue_number}",status="200"} 1',
    );
    expect(text).toContain('claims_queue_depth 0');
  });

  it('other paths and methods are left to Probot', async () => {
    const base = await serve();

    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/health`, { method: 'POST' })).status).toBe(404);
  });
});

/** A note body that mentions the claim's author (docs/protocol.md §4, notifyOnExpiry). */
function expectMention(login: string): string {
  return expect.stringMatching(
    new RegExp(`^<!-- claim-warden note=expired comment=\\d+ -->\\n@${login} `),
  ) as unknown as string;
}
