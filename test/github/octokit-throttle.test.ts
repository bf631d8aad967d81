import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import nock from 'nock';
import { pino } from 'pino';
import { Probot, ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  InstallationOctokits,
  installationOctokit,
  rateLimitRetryAfterMs,
} from '../../src/github/octokit.js';
import { writePacing } from '../../src/github/write-pacing.js';
import { waitFor } from '../helpers/app-harness.js';
import { manualClock } from '../helpers/manual-clock.js';

// Installation octokits given no pacing share one for the process, spacing writes of one
// installation 1 s apart; each test uses installation ids of its own so that the spacing
// left by one test does not delay the next. Vitest runs each file in its own process.

const API = 'https://api.github.com';
let privateKey: string;

beforeAll(() => {
  ({ privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }));
  // Test files share a process: nock is turned on for this file and off after it.
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
});

afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

let logLines: Array<Record<string, unknown>>;
let probot: Probot;

beforeEach(() => {
  logLines = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  probot = new Probot({ appId: 1, privateKey, log: pino({ level: 'warn' }, sink) });
});

afterEach(() => {
  // Fail the test on any mock left unused; unmatched requests fail by themselves, as the
  // network is closed.
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

/** The token endpoint for an installation, answered once with `token-<id>`. */
function tokenFor(installationId: number): void {
  nock(API)
    .post(`/app/installations/${installationId}/access_tokens`)
    .reply(201, {
      token: `token-${installationId}`,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      permissions: { issues: 'write', metadata: 'read' },
      repository_selection: 'all',
    });
}

/** `times` label writes by an installation, recording each as it reaches "GitHub". */
function labelWrites(installationId: number, times: number, stamps: Stamp[]): void {
  nock(API)
    .matchHeader('authorization', `token token-${installationId}`)
    .post('/repos/o/r/issues/1/labels')
    .times(times)
    .reply(() => {
      stamps.push({ installationId });
      return [200, [{ name: 'status:in-progress' }]];
    });
}

interface Stamp {
  installationId: number;
}

function addLabel(octokit: ProbotOctokit) {
  return octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
    owner: 'o',
    repo: 'r',
    issue_number: 1,
    labels: ['status:in-progress'],
  });
}

/** An `issues.opened` delivery for an installation, as Probot's webhooks receive it. */
function issueOpened(installationId: number) {
  return {
    id: `delivery-${installationId}`,
    name: 'issues',
    payload: {
      action: 'opened',
      installation: { id: installationId },
      repository: { name: 'r', owner: { login: 'o' } },
      issue: { number: 1 },
    },
  } as unknown as Parameters<Probot['receive']>[0];
}

/**
 * The throttle key each octokit was built with, as the throttling plugin reads it
 * (`throttle.id`, default "no-id"): writes of one key are paced together. Recorded by a plugin
 * on a Probot whose octokits are otherwise Probot's own.
 */
function recordingThrottleIds(): Probot {
  const Octokit = ProbotOctokit.plugin((octokit, options) => {
    (octokit as Keyed).throttleId = (options as { throttle?: { id?: string } }).throttle?.id;
  });
  return new Probot({ appId: 1, privateKey, log: probot.log, Octokit });
}

type Keyed = ProbotOctokit & { throttleId?: string };

describe("Probot's own installation octokits", () => {
  it('context.octokit makes one installation wait on another: writes share one throttle key', async () => {
    for (const id of [1, 2]) {
      tokenFor(id);
      labelWrites(id, 1, []);
    }
    const recording = recordingThrottleIds();
    const keys: Array<string | undefined> = [];
    recording.on('issues.opened', async (context) => {
      keys.push((context.octokit as Keyed).throttleId);
      await addLabel(context.octokit);
    });

    await Promise.all([recording.receive(issueOpened(1)), recording.receive(issueOpened(2))]);

    // No id: both installations' event octokits are paced under the plugin's "no-id".
    expect(keys).toEqual([undefined, undefined]);
  });

  it('app.auth(id) already keys the write group by installation', async () => {
    for (const id of [3, 4]) {
      tokenFor(id);
      labelWrites(id, 1, []);
    }
    const recording = recordingThrottleIds();
    const [one, two] = await Promise.all([recording.auth(3), recording.auth(4)]);

    await Promise.all([addLabel(one), addLabel(two)]);

    expect([(one as Keyed).throttleId, (two as Keyed).throttleId]).toEqual(['3', '4']);
  });

  it('a secondary rate limit is not retried by Probot', async () => {
    tokenFor(5);
    nock(API)
      .post('/repos/o/r/issues/1/labels')
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '1' });
    const octokit = await probot.auth(5);

    await expect(addLabel(octokit)).rejects.toMatchObject({ status: 403 });
  });
});

describe('installationOctokit', () => {
  it('writes of one installation do not wait on another, and keep their own 1 s spacing', async () => {
    const stamps: Stamp[] = [];
    for (const id of [11, 12]) {
      tokenFor(id);
      labelWrites(id, 3, stamps);
    }
    // Time stands still until the test moves it: what waits, and for how long, is recorded.
    const clock = manualClock();
    const octokits = new InstallationOctokits(probot, { pacing: writePacing({ clock }) });
    const [one, two] = await Promise.all([octokits.get(11), octokits.get(12)]);

    const writes = Promise.all([one, one, one, two, two, two].map(addLabel));

    // Both installations' first writes reach GitHub with no time passing; the second of each
    // waits GitHub's second, each on its own.
    const held = () => clock.held.length === 2 && clock.held.every((w) => w.ms === 1000);
    for (const count of [2, 4]) {
      await waitFor(() => stamps.length === count && held(), `${count} writes, 2 waiting`);
      expect(stamps.filter((s) => s.installationId === 11)).toHaveLength(count / 2);
      clock.advance(1000);
    }
    await writes;
    expect(stamps.filter((s) => s.installationId === 12)).toHaveLength(3);
    expect(clock.now()).toBe(2000);
    expect(await octokits.get(11)).toBe(one);
  });

  it('retries a write after a secondary rate limit, waiting retry-after, and logs the installation', async () => {
    tokenFor(21);
    let refusedAt = 0;
    let acceptedAt = 0;
    // Labels rather than comments: comments notify, and the plugin paces those 3 s apart.
    nock(API)
      .post('/repos/o/r/issues/1/labels')
      .reply(() => {
        refusedAt = Date.now();
        return [
          403,
          { message: 'You have exceeded a secondary rate limit. Please wait a few minutes.' },
          { 'retry-after': '1' },
        ];
      })
      .post('/repos/o/r/issues/1/labels')
      .reply(() => {
        acceptedAt = Date.now();
        return [200, [{ name: 'status:in-progress' }]];
      });
    const octokit = await installationOctokit(probot, 21);

    const response = await addLabel(octokit);

    expect(response.status).toBe(200);
    expect(acceptedAt - refusedAt).toBeGreaterThanOrEqual(950);
    expect(logLines).toContainEqual(
      expect.objectContaining({ installationId: 21, limit: 'secondary', retryAfter: 1 }),
    );
  });

  it('honours x-ratelimit-reset on a 429 with no requests remaining', async () => {
    tokenFor(31);
    // A reset at the current second: the plugin waits until one second after it.
    const reset = Math.floor(Date.now() / 1000);
    let refusedAt = 0;
    let acceptedAt = 0;
    nock(API)
      .post('/repos/o/r/issues/1/labels')
      .reply(() => {
        refusedAt = Date.now();
        return [
          429,
          { message: 'API rate limit exceeded for installation ID 31.' },
          { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
        ];
      })
      .post('/repos/o/r/issues/1/labels')
      .reply(() => {
        acceptedAt = Date.now();
        return [200, [{ name: 'status:in-progress' }]];
      });
    const octokit = await installationOctokit(probot, 31);

    const response = await addLabel(octokit);

    expect(response.status).toBe(200);
    expect(acceptedAt).toBeGreaterThanOrEqual(reset * 1000 + 950);
    expect(acceptedAt).toBeGreaterThan(refusedAt);
    expect(logLines).toContainEqual(
      expect.objectContaining({ installationId: 31, limit: 'primary' }),
    );
  });

  it('gives up at once on a wait longer than maxRetryAfterSeconds, telling the caller how long', async () => {
    tokenFor(41);
    const reset = Math.floor(Date.now() / 1000) + 1800;
    nock(API)
      .post('/repos/o/r/issues/1/labels')
      .reply(
        429,
        { message: 'API rate limit exceeded for installation ID 41.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      );
    const octokit = await installationOctokit(probot, 41, { maxRetryAfterSeconds: 60 });

    const error = await addLabel(octokit).catch((e: unknown) => e);

    // Refused without a retry (the one reply above is all nock has) and without waiting.
    expect(error).toMatchObject({ status: 429 });
    expect(logLines).toContainEqual(
      expect.objectContaining({
        installationId: 41,
        retryCount: 0,
        msg: 'GitHub rate limit hit; giving up on the request',
      }),
    );
    expect(rateLimitRetryAfterMs(error)).toBeGreaterThan(1_700_000);
  });
});

describe('what a rate-limited request throws', () => {
  it('carries the wait GitHub asked for when the octokit gives up at once (retry-after: 120)', async () => {
    tokenFor(51);
    nock(API)
      .post('/repos/o/r/issues/1/labels')
      .reply(
        403,
        { message: 'You have exceeded a secondary rate limit.' },
        { 'retry-after': '120' },
      );
    const octokit = await installationOctokit(probot, 51, { maxRetryAfterSeconds: 60 });

    const error = await addLabel(octokit).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 403, retryAfterMs: 120_000 });
  });

  it('carries retry-after of a 429 the throttling plugin does not retry itself', async () => {
    tokenFor(52);
    nock(API)
      .post('/repos/o/r/issues/1/labels')
      .reply(429, { message: 'Too many requests' }, { 'retry-after': '5' });
    const octokit = await installationOctokit(probot, 52);

    const error = await addLabel(octokit).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 429, retryAfterMs: 5000 });
  });

  it('carries no wait on a failure that is no rate limit', async () => {
    tokenFor(53);
    nock(API).post('/repos/o/r/issues/1/labels').reply(404, { message: 'Not Found' });
    const octokit = await installationOctokit(probot, 53);

    const error = await addLabel(octokit).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 404 });
    expect(error).not.toHaveProperty('retryAfterMs');
  });
});

describe('rateLimitRetryAfterMs', () => {
  const now = 1_700_000_000_000;
  it.each([
    ['retry-after on a 403', 403, { 'retry-after': '30' }, 30_000],
    [
      'reset on a 429',
      429,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000010' },
      11_000,
    ],
    [
      'a reset already past',
      403,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1699999990' },
      1_000,
    ],
    ['a 403 that is no rate limit', 403, { 'x-ratelimit-remaining': '4000' }, undefined],
    ['a 500', 500, { 'retry-after': '30' }, undefined],
  ])('%s', (_name, status, headers, expected) => {
    expect(rateLimitRetryAfterMs({ status, response: { headers } }, now)).toBe(expected);
  });
});
