/**
 * Long calls: a claim waits on GitHub's write pacing, so a client that sends a
 * progressToken hears from it until the answer; a cancelled call sends no result.
 */
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO, waitFor } from '../helpers/app-harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { callTool, claimArgs, mcpClient } from './mcp-helpers.js';

describe.concurrent('a claim waiting on GitHub’s write pacing', () => {
  it('sends progress notifications while it waits, then the claim', async ({ onTestFinished }) => {
    const clock = manualClock();
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      env: { CLAIMS_WRITE_PACING_MS: '1000' },
      main: { pacingClock: clock },
    });
    const n = fake.createIssue(REPO);
    const client = await mcpClient(appUrl, fake.tokenFor('alice'));
    onTestFinished(() => client.close());
    const progress: number[] = [];
    const claimed = callTool(client, 'issue_claim', claimArgs(n, 's-1'), {
      onprogress: (p) => progress.push(p.progress),
      resetTimeoutOnProgress: true,
    });
    let settled = false;
    void claimed.finally(() => {
      settled = true;
    });
    // The reconcile's second write waits on the clock, which stands still: the call waits.
    await waitFor(() => clock.held.length > 0 && progress.length > 0, 'a progress notification');
    while (!settled) {
      clock.advance(1000);
      await waitFor(() => clock.held.length > 0 || settled, 'the next write or the answer');
    }
    const result = await claimed;
    expect(result.isError).toBeFalsy();
    expect(progress[0]).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('a cancelled claim sends no result and stops reporting progress', async ({
    onTestFinished,
  }) => {
    const clock = manualClock();
    const { fake, appUrl } = await harnessFor(onTestFinished, {
      env: { CLAIMS_WRITE_PACING_MS: '1000' },
      main: { pacingClock: clock },
    });
    const n = fake.createIssue(REPO);
    const client = await mcpClient(appUrl, fake.tokenFor('alice'));
    onTestFinished(() => client.close());
    const controller = new AbortController();
    const progress: number[] = [];
    const claimed = callTool(client, 'issue_claim', claimArgs(n, 's-1'), {
      onprogress: (p) => progress.push(p.progress),
      signal: controller.signal,
    });
    await waitFor(() => progress.length > 0, 'a progress notification');
    controller.abort('changed my mind');
    await expect(claimed).rejects.toThrow(/changed my mind|abort/i);
    const heard = progress.length;
    // The claim under way runs to its end (no half-made claim), then the client hears nothing.
    await waitFor(() => {
      clock.advance(1000);
      return fake.issue(REPO, n).labels.includes('status:in-progress') && clock.held.length === 0;
    }, 'the claim finished under its lock');
    expect(progress.length).toBe(heard);
  });
});
