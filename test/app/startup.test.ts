import { describe, expect, it } from 'vitest';
import { main } from '../../src/app/main.js';
import { startFakeGitHub } from '../fake-github/fake-github.js';
import { signWebhook } from '../fake-github/webhooks.js';
import { logSink, WEBHOOK_SECRET, waitFor } from '../helpers/app-harness.js';
import { afterTest, startEnv, started, startUnreachable } from './startup-helpers.js';

describe('start-up', () => {
  it('with GitHub unreachable it stays up, answers /health 503, logs the URL it retries, and starts once GitHub answers', async () => {
    const app = await startUnreachable();
    const { githubPort, lines, url } = app;
    await waitFor(
      () => lines.filter((l) => l.includes('GitHub not reachable')).length >= 2,
      'two retries logged',
    );

    const health = await fetch(url('/health'));
    const body = '{"action":"created"}';
    const webhook = await fetch(url('/api/github/webhooks'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': 'd-1',
        'x-hub-signature-256': signWebhook(WEBHOOK_SECRET, body),
      },
      body,
    });
    expect(health.status).toBe(503);
    expect(webhook.status).toBe(503);
    const retry = JSON.parse(lines.find((l) => l.includes('GitHub not reachable'))!);
    expect(retry).toMatchObject({ level: 40, url: `http://127.0.0.1:${githubPort}/api/v3/app` });
    expect(lines.join('\n')).not.toMatch(/PRIVATE KEY|e2e-webhook-secret/);

    const running = await app.githubAnswers();

    expect(running.port).toBe(app.port);
    expect((await fetch(url('/health'))).status).toBe(200);
  });

  it('a wrong APP_ID stops start-up with a message naming APP_ID and PRIVATE_KEY', async () => {
    const fake = await startFakeGitHub({ appId: 1 });
    afterTest(() => fake.close());
    const port = Number(fake.host.split(':')[1]);

    const failed = main(startEnv(port, { APP_ID: '424242' }), { logDestination: logSink([]) });

    await expect(failed).rejects.toThrow(/APP_ID \(424242\).*PRIVATE_KEY/);
    await expect(failed).rejects.toThrow(/A JSON web token could not be decoded/);
  });

  it('PORT=0 listens on a free port and main reports it', async () => {
    const fake = await startFakeGitHub();
    afterTest(() => fake.close());

    const running = await started(
      await main(startEnv(Number(fake.host.split(':')[1])), { logDestination: logSink([]) }),
    );

    expect(running.port).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${running.port}/health`)).status).toBe(200);
  });

  it('every log line names its logger once', async () => {
    const fake = await startFakeGitHub();
    afterTest(() => fake.close());
    const lines: string[] = [];

    await started(
      await main(startEnv(Number(fake.host.split(':')[1]), { LOG_LEVEL: 'debug' }), {
        logDestination: logSink(lines),
      }),
    );

    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.match(/"name":/g) ?? []).toHaveLength(1);
    expect(lines.map((l) => JSON.parse(l).name)).toEqual(
      expect.arrayContaining(['claim-warden', 'octokit']),
    );
  });

  it('LOG_FORMAT=pretty writes Probot’s readable lines instead of JSON', async () => {
    const fake = await startFakeGitHub();
    afterTest(() => fake.close());
    const lines: string[] = [];

    await started(
      await main(startEnv(Number(fake.host.split(':')[1]), { LOG_FORMAT: 'pretty' }), {
        logDestination: logSink(lines),
      }),
    );

    const line = lines.find((l) => l.includes('claim-warden started'));
    expect(line).toBeDefined();
    expect(line!.trimStart().startsWith('{')).toBe(false);
    expect(line).toMatch(/INFO/);
  });
});
