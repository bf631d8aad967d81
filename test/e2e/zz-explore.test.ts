import { it } from 'vitest';
import { renderClaimComment } from '../../src/claims/comment.js';
import { REPO, startHarness } from '../helpers/app-harness.js';

it('explore', async () => {
  const harness = await startHarness();
  const { fake } = harness;
  console.log(
    fake.requests
      .map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${r.status} ${r.actor}`)
      .join('\n'),
  );
  fake.clearRequests();
  const n = fake.createIssue(REPO, { title: 'x' });
  const at = new Date();
  const t0 = Date.now();
  fake.addComment(REPO, n, {
    author: 'alice',
    body: renderClaimComment({
      session: 's-1',
      lane: 'l',
      branch: 'b',
      started: at,
      updated: at,
      stage: 'claimed',
      assignee: 'claim',
    }),
  });
  await harness.settle();
  console.log('settle ms', Date.now() - t0);
  console.log(
    fake.requests
      .map(
        (r) =>
          `${r.method} ${r.path} ${JSON.stringify(r.query)} ${r.status} ${r.actor} ${r.at.toISOString()}`,
      )
      .join('\n'),
  );
  console.log(
    fake.deliveries
      .map(
        (d) =>
          `${d.event}.${d.action} ${(d.payload.sender as { login: string }).login} ${d.state} ${d.status}`,
      )
      .join('\n'),
  );
  const r = await fetch(`${harness.appUrl}/metrics`);
  console.log(await r.text());
  await harness.close();
});
