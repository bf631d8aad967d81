/**
 * One delivery recovery run against the fake GitHub's delivery log: paging back to the
 * checkpoint, the cap, and redeliveries GitHub refuses.
 */
import { createServer, type Server } from 'node:http';
import pino from 'pino';
import { ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoverDeliveries } from '../../src/recovery/recover-deliveries.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { claimComment } from '../e2e/e2e-helpers.js';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/fake-github.js';
import { freePort, PRIVATE_KEY, REPO } from '../helpers/app-harness.js';

const LIST = '/app/hook/deliveries';
const ATTEMPTS = /^\/app\/hook\/deliveries\/\d+\/attempts$/;

let fake: FakeGitHub;
let receiver: Server;
let receiverUrl: string;

beforeEach(async () => {
  fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: 7, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
  const port = await freePort();
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${port}/`;
  // Down: every delivery fails until the test points GitHub at the receiver.
  fake.setWebhookTarget({ url: `http://127.0.0.1:${await freePort()}/`, secret: 's' });
});

afterEach(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await fake.close();
  fake.assertValid();
});

function deps(store: MemoryStore, max: number) {
  const octokit = new ProbotOctokit({
    auth: { appId: 1, privateKey: PRIVATE_KEY },
    baseUrl: fake.apiUrl,
    throttle: { enabled: false },
    retry: { enabled: false },
  });
  return {
    store,
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    appOctokit: async () => octokit as unknown as ProbotOctokit,
    max,
    subscribed: (event: string, action: string | null) =>
      `${event}.${action}` === 'issue_comment.created',
  };
}

const redelivered = () => fake.hookAttempts.filter((a) => a.redelivery).map((a) => a.guid);

describe('a delivery recovery run', () => {
  it('pages back through the cursor, redelivers oldest first up to the cap, and the next run goes on from there', async () => {
    const claims = [1, 2, 3].map((i) => {
      const n = fake.createIssue(REPO);
      fake.addComment(REPO, n, { author: 'alice', body: claimComment(`s-${i}`) });
      return n;
    });
    // Newer deliveries the app ignores push the claims onto the second page.
    for (let i = 0; i < 110; i++) fake.createIssue(REPO);
    await fake.settled();
    const failed = fake.hookAttempts.filter((a) => a.event === 'issue_comment').map((a) => a.guid);
    expect(claims).toHaveLength(3);
    expect(fake.hookAttempts.every((a) => a.statusCode === 0)).toBe(true);
    fake.setWebhookTarget({ url: receiverUrl, secret: 's' });
    const store = new MemoryStore();

    fake.clearRequests();
    const first = await recoverDeliveries(deps(store, 2));
    await fake.settled();
    expect(first).toEqual({ listed: 116, found: 3, redelivered: 2, failed: 0 });
    expect(fake.count('GET', LIST)).toBe(2);
    expect(redelivered()).toEqual(failed.slice(0, 2));

    fake.clearRequests();
    const second = await recoverDeliveries(deps(store, 2));
    await fake.settled();
    expect(second).toMatchObject({ found: 1, redelivered: 1 });
    expect(redelivered()).toEqual(failed);

    fake.clearRequests();
    const third = await recoverDeliveries(deps(store, 2));
    // Only the last redelivery is newer than the checkpoint, and it succeeded.
    expect(third).toEqual({ listed: 1, found: 0, redelivered: 0, failed: 0 });
    expect(fake.count('GET', LIST)).toBe(1);
    expect(fake.count('POST', ATTEMPTS)).toBe(0);
  });

  it('a redelivery GitHub refuses is counted as failed and asked again next run', async () => {
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await fake.settled();
    fake.setWebhookTarget({ url: receiverUrl, secret: 's' });
    const store = new MemoryStore();
    fake.inject({ method: 'POST', path: ATTEMPTS, status: 422 });

    expect(await recoverDeliveries(deps(store, 100))).toMatchObject({
      found: 1,
      redelivered: 0,
      failed: 1,
    });
    expect(await recoverDeliveries(deps(store, 100))).toMatchObject({
      found: 1,
      redelivered: 1,
      failed: 0,
    });
    await fake.settled();
    expect(redelivered()).toHaveLength(1);
  });

  it('a listing GitHub fails moves no checkpoint', async () => {
    const n = fake.createIssue(REPO);
    fake.addComment(REPO, n, { author: 'alice', body: claimComment('s-1') });
    await fake.settled();
    const store = new MemoryStore();
    fake.inject({ method: 'GET', path: LIST, status: 502 });
    await expect(recoverDeliveries(deps(store, 100))).rejects.toMatchObject({ status: 502 });
    expect(await store.deliveryCheckpoint()).toBeNull();
  });
});
