import { afterEach, describe, expect, it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { type Harness, REPO, startHarness } from '../helpers/app-harness.js';

// Issue 10 #6: through the real server, a failed installation token request is counted in
// claims_github_requests_total and logged as a warning naming the installation. (A 500 is
// covered in failures.test.ts: here plugin-retry's real waits would outlast the test.)
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a failed installation token request, through the real server', () => {
  it.each([401])('a %i is counted and logged as a warning', async (status) => {
    // Before start-up: the start-up resync would otherwise fetch (and cache) a good token.
    harness = await startHarness({
      env: { LOG_LEVEL: 'warn' },
      captureLogs: true,
      seed: (fake) => {
        fake.inject({
          method: 'POST',
          path: /^\/app\/installations\/\d+\/access_tokens$/,
          status,
          body: { message: 'Bad credentials' },
          times: Number.POSITIVE_INFINITY,
        });
      },
    });
    const h = harness;
    const at = new Date();
    const n = h.fake.createIssue(REPO, { title: 'Needs a token' });
    h.fake.addComment(REPO, n, {
      author: 'alice',
      body: renderClaimComment({
        session: 'tok',
        lane: 'main',
        branch: 'fix/tok',
        started: at,
        updated: at,
        stage: 'implementing',
        assignee: 'claim',
      }),
    });
    const metrics = () => fetch(`${h.appUrl}/metrics`).then((r) => r.text());
    const counted = new RegExp(
      `claims_github_requests_total\\{method="POST",route="/app/installations/\\{installation_id\\}/access_tokens",status="${status}"\\} [1-9]`,
    );
    const deadline = Date.now() + 15_000;
    let text = await metrics();
    while (!counted.test(text) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await metrics();
    }

    expect(text).toMatch(counted);
    const warnings = h.logLines.map((line) => JSON.parse(line)).filter((l) => l.level === 40);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'installation token request failed',
        installationId: h.installationId,
        status,
      }),
    );
  });
});
