import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, interpose, issueNumber, REPO, windowAhead } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

const ALICE = { session: 'unit7', lane: 'lane-a', branch: 'feat/x' };

function claimInput(ref: string, identity = ALICE) {
  return { issue: ref, ...identity };
}

describe('claim on a free issue', () => {
  it('posts one claim comment with tagged identities, adds the label and assigns the account', async () => {
    const ref = h.issue();
    const result = await h.run('claim', claimInput(ref));

    expect(result.status).toBe('ok');
    expect(result.data).toMatchObject({
      action: 'claimed',
      claim: { stage: 'claimed', assignee: 'claim' },
    });
    const comments = h.fake.comments(REPO, issueNumber(ref));
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body!;
    expect(body).toMatch(
      new RegExp(
        `^<!-- praetor-claim v=1 session=${h.tag('session', 'unit7')} lane=${h.tag('lane', 'lane-a')} branch=feat/x started=\\S+Z updated=\\S+Z stage=claimed assignee=claim -->\n`,
      ),
    );
    expect(body).not.toMatch(/unit7|lane-a/);
    const issue = h.fake.issue(REPO, issueNumber(ref));
    expect(issue.labels).toEqual(['status:in-progress']);
    expect(issue.assignees).toEqual(['alice']);
  });

  it('creates the missing status label with the app’s colour and description first', async () => {
    const ref = h.issue();
    await h.run('claim', claimInput(ref));
    const label = h.fake.labels(REPO).find((l) => l.name === 'status:in-progress');
    expect(label).toMatchObject({ color: '1d76db' });
    expect(h.fake.count('POST', '/repos/acme/widgets/labels')).toBe(1);
  });

  it('records assignee=before when the account was assigned already', async () => {
    const ref = h.issue({ assignees: ['alice'] });
    const result = await h.run('claim', claimInput(ref));
    expect(result.data).toMatchObject({ claim: { assignee: 'before' } });
    expect(h.fake.count('POST', /\/assignees$/)).toBe(0);
  });

  it('resumes the session’s own live claim without a second comment', async () => {
    const ref = h.issue();
    await h.run('claim', claimInput(ref));
    const again = await h.run('claim', claimInput(ref));
    expect(again.status).toBe('ok');
    expect(again.data).toMatchObject({ action: 'resumed' });
    expect(h.fake.comments(REPO, issueNumber(ref))).toHaveLength(1);
  });

  it('resuming repairs a missing label and says when the branch differs', async () => {
    const ref = h.issue();
    h.seedClaim(ref, { author: 'alice', session: 'unit7', branch: 'feat/y' });
    const result = await h.run('claim', claimInput(ref));
    expect(result.status).toBe('ok');
    expect(result.message).toContain('branch feat/y, not feat/x');
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual(['status:in-progress']);
  });
});

describe('claim refusals', () => {
  it('is refused while another session holds a live claim, naming it, and writes nothing', async () => {
    const ref = h.issue();
    const held = h.seedClaim(ref, {
      author: 'bob',
      session: 'other',
      lane: 'lane-b',
      stage: 'review',
    });
    h.fake.clearRequests();

    const result = await h.run('claim', claimInput(ref));

    expect(result.status).toBe('refused');
    expect(result.message).toContain(`comment ${held} by @bob`);
    expect(result.message).toContain(`session ${h.tag('session', 'other')}`);
    expect(result.message).toContain(`lane ${h.tag('lane', 'lane-b')}`);
    expect(result.message).toMatch(/branch feat\/x, stage review, last update \d{4}-/);
    expect(result.data).toMatchObject({ reason: 'held', holder: { commentId: held } });
    expect(h.fake.writes()).toEqual([]);
  });

  it.each([['completed' as const], ['not_planned' as const]])(
    'a closed (%s) issue is refused naming its state, and nothing is written',
    async (reason) => {
      const ref = h.issue({ state: 'closed', stateReason: reason });
      h.fake.clearRequests();
      const result = await h.run('claim', claimInput(ref));
      expect(result.status).toBe('refused');
      expect(result.message).toContain(`is closed (${reason})`);
      expect(h.fake.writes()).toEqual([]);
    },
  );

  it('a pull request number is unverifiable, never free', async () => {
    const ref = h.issue({ isPullRequest: true });
    const result = await h.run('claim', claimInput(ref));
    expect(result.status).toBe('unverifiable');
    expect(result.message).toContain('pull request');
    expect(h.fake.writes()).toEqual([]);
  });

  it('a GitHub App installation token cannot claim: the account is unknown', async () => {
    h.fake.addInstallation({ id: 9, account: 'acme' });
    const ref = h.issue();
    const env = {
      GITHUB_TOKEN: h.fake.installationToken(9),
      GITHUB_API_URL: h.fake.apiUrl,
      CLAIM_WARDEN_CONFIG_DIR: h.configDir,
    };
    const result = await h.run('claim', claimInput(ref), { runtime: { env } });
    expect(result.status).toBe('unverifiable');
    expect(result.message).toContain('claims need a user token');
    expect(h.fake.writes()).toEqual([]);
  });

  it('a missing issue is unverifiable', async () => {
    const result = await h.run('claim', claimInput(`${REPO}#99`));
    expect(result.status).toBe('unverifiable');
    expect(result.message).toContain('was not found');
  });

  it('an account the protocol does not trust gets its comment finalised and nothing left behind', async () => {
    const ref = h.issue();
    const result = await h.run('claim', claimInput(ref), { login: 'mallory' });
    expect(result.status).toBe('refused');
    expect(result.data).toMatchObject({ reason: 'untrusted' });
    const [comment] = h.fake.comments(REPO, issueNumber(ref));
    expect(h.marker(comment!.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    const issue = h.fake.issue(REPO, issueNumber(ref));
    expect(issue.labels).toEqual([]);
    expect(issue.assignees).toEqual([]);
  });

  it.each([
    ['a reference without an owner', { issue: 'widgets#7' }],
    ['issue #0', { issue: `${REPO}#0` }],
    ['a leading zero', { issue: `${REPO}#07` }],
    ['a branch with a space', { branch: 'feat x' }],
    ['a session starting with a dash', { session: '-unit7' }],
  ])('%s is a usage error before any request', async (_, change) => {
    const ref = h.issue();
    h.fake.clearRequests();
    const result = await h.run('claim', { ...claimInput(ref), ...change });
    expect(result.status).toBe('usage');
    expect(h.fake.requests).toEqual([]);
  });
});

describe('the clock-skew cap, as the app reads it (docs/protocol.md §3)', () => {
  it.each([
    ['exactly one window ahead still holds: refused', 0, 'refused'],
    ['one second more is stale: taken over', 1000, 'ok'],
  ])(
    'a claim whose marker updated lies ahead of now, though GitHub recorded it a minute ago: %s',
    async (_name, extraMs, status) => {
      const { now, updated } = windowAhead(extraMs);
      const ref = h.issue({ labels: ['status:in-progress'], assignees: ['bob'] });
      const ahead = h.seedClaim(ref, {
        author: 'bob',
        session: 'fast-clock',
        updated,
      });

      const result = await h.run('claim', claimInput(ref), { runtime: { now: () => now } });

      expect(result.status).toBe(status);
      if (status === 'refused') {
        expect(result.data).toMatchObject({ reason: 'held', holder: { commentId: ahead } });
      } else {
        expect(result.data).toMatchObject({
          action: 'took-over',
          replaced: [{ commentId: ahead }],
        });
        expect(h.marker(ahead)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
      }
    },
  );
});

describe('stale takeover', () => {
  it('writes a new comment naming the replaced claim and finalises the stale one as abandoned', async () => {
    const ref = h.issue({ labels: ['status:in-progress', 'status:blocked'], assignees: ['bob'] });
    const stale = h.seedClaim(ref, {
      author: 'bob',
      session: 'other',
      stage: 'blocked',
      assignee: 'claim',
      ageMinutes: 7 * 60,
    });

    const result = await h.run('claim', claimInput(ref));

    expect(result.status).toBe('ok');
    expect(result.data).toMatchObject({ action: 'took-over', replaced: [{ commentId: stale }] });
    const comments = h.fake.comments(REPO, issueNumber(ref));
    expect(comments).toHaveLength(2);
    expect(comments[1]!.body).toContain(
      `- Takeover: replaces claim comment ${stale} (session ${h.tag('session', 'other')})`,
    );
    expect(h.marker(stale)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(comments[0]!.body).toMatch(/- Reason: stale since \S+Z; taken over by comment \d+/);
    const issue = h.fake.issue(REPO, issueNumber(ref));
    // The new claim is `claimed`, not blocked; the stale holder's assignment goes, as the app does.
    expect(issue.labels).toEqual(['status:in-progress']);
    expect(issue.assignees).toEqual(['alice']);
  });

  it('a takeover of a stale claim the same account assigned keeps assignee=claim', async () => {
    const ref = h.issue({ assignees: ['alice'] });
    h.seedClaim(ref, {
      author: 'alice',
      session: 'old-session',
      assignee: 'claim',
      ageMinutes: 7 * 60,
    });
    const result = await h.run('claim', claimInput(ref));
    expect(result.data).toMatchObject({ action: 'took-over', claim: { assignee: 'claim' } });
  });

  it('a claim exactly one window old is still held; one second more and it is taken over', async () => {
    const ref = h.issue();
    const id = h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 60 });
    // docs/protocol.md §3: the heartbeat is the earlier of the marker's updated and GitHub's updated_at.
    const beat = Date.parse(h.fake.comment(id)!.updated_at);
    const at = (ms: number) => ({ runtime: { now: () => new Date(beat + ms) } });
    const window = 6 * 3_600_000;
    expect((await h.run('claim', claimInput(ref), at(window))).status).toBe('refused');
    expect((await h.run('claim', claimInput(ref), at(window + 1_000))).data).toMatchObject({
      action: 'took-over',
    });
  });

  it('honours --stale-after', async () => {
    const ref = h.issue();
    h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 30 });
    expect((await h.run('claim', { ...claimInput(ref), staleAfter: '1h' })).status).toBe('refused');
    expect((await h.run('claim', { ...claimInput(ref), staleAfter: '20m' })).status).toBe('ok');
    expect((await h.run('claim', { ...claimInput(ref), staleAfter: '5m' })).status).toBe('usage');
  });
});

describe('repository config', () => {
  it('uses the labels and stale window of .github/claims.yml, like the app', async () => {
    h.fake.setFile(
      REPO,
      '.github/claims.yml',
      'staleAfter: 10m\nlabels: { inProgress: "wip", blocked: "stuck" }\n',
    );
    const ref = h.issue();
    h.seedClaim(ref, { author: 'bob', session: 'other', ageMinutes: 12 });
    const result = await h.run('claim', claimInput(ref));
    expect(result.data).toMatchObject({ action: 'took-over' });
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual(['wip']);
  });

  it('an invalid config makes the claim unverifiable, naming the field, and nothing is written', async () => {
    h.fake.setFile(REPO, '.github/claims.yml', 'staleAfter: 1m\n');
    const ref = h.issue();
    h.fake.clearRequests();
    const result = await h.run('claim', claimInput(ref));
    expect(result.status).toBe('unverifiable');
    expect(result.message).toContain('staleAfter');
    expect(h.fake.writes()).toEqual([]);
  });
});

describe('claim failures fail closed', () => {
  it('a failure reading the thread is unverifiable and writes nothing', async () => {
    const ref = h.issue();
    h.fake.inject({ method: 'GET', path: /\/issues\/\d+\/comments$/, status: 502 });
    h.fake.clearRequests();
    const result = await h.run('claim', claimInput(ref));
    expect(result.status).toBe('unverifiable');
    expect(result.message).toContain('502');
    expect(h.fake.writes()).toEqual([]);
  });

  it('a label failure after the comment was written finalises it as abandoned', async () => {
    const ref = h.issue();
    h.fake.inject({ method: 'POST', path: /\/issues\/\d+\/labels$/, status: 500 });
    const result = await h.run('claim', claimInput(ref));
    expect(result.status).toBe('unverifiable');
    expect(result.data).toMatchObject({ cleanedUp: true });
    const [comment] = h.fake.comments(REPO, issueNumber(ref));
    expect(h.marker(comment!.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(comment!.body).toContain(
      '- Reason: the claim could not be completed: GitHub answered 500',
    );
    const issue = h.fake.issue(REPO, issueNumber(ref));
    expect(issue.labels).toEqual([]);
    expect(issue.assignees).toEqual([]);
    // The retry starts afresh and holds.
    expect((await h.run('claim', claimInput(ref))).data).toMatchObject({ action: 'claimed' });
  });

  it('a read-back failure abandons the half-made claim and removes the label it added', async () => {
    const ref = h.issue();
    const fetch = interpose([
      { method: 'GET', path: /\/issues\/\d+\/comments$/, nth: 2, status: 500 },
    ]);
    const result = await h.run('claim', claimInput(ref), { runtime: { fetch } });
    expect(result.status).toBe('unverifiable');
    const [comment] = h.fake.comments(REPO, issueNumber(ref));
    expect(h.marker(comment!.id)).toMatchObject({ stage: 'released', outcome: 'abandoned' });
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual([]);
  });

  it('a takeover whose confirmation fails clears both status labels', async () => {
    const ref = h.issue({ labels: ['status:in-progress', 'status:blocked'] });
    h.seedClaim(ref, { author: 'bob', session: 'other', stage: 'blocked', ageMinutes: 7 * 60 });
    const fetch = interpose([
      { method: 'GET', path: /\/issues\/\d+\/comments$/, nth: 2, status: 500 },
    ]);
    const result = await h.run('claim', claimInput(ref), { runtime: { fetch } });
    expect(result.status).toBe('unverifiable');
    expect(h.fake.issue(REPO, issueNumber(ref)).labels).toEqual([]);
  });

  it('a failed resume keeps the session’s live claim live', async () => {
    const ref = h.issue();
    const own = h.seedClaim(ref, { author: 'alice', session: 'unit7' });
    h.fake.inject({ method: 'POST', path: /\/issues\/\d+\/labels$/, status: 500 });
    const result = await h.run('claim', claimInput(ref));
    expect(result.status).toBe('unverifiable');
    expect(h.marker(own)).toMatchObject({ stage: 'implementing' });
  });

  it('the deadline bounds the whole command and reports it unverifiable', async () => {
    const ref = h.issue();
    h.fake.inject({ method: 'GET', path: /\/issues\/\d+$/, delayMs: 3_000 });
    const started = Date.now();
    const result = await h.run('claim', claimInput(ref), { runtime: { deadlineMs: 300 } });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.status).toBe('unverifiable');
    expect(result.message).toContain('deadline passed');
    expect(result.data).toMatchObject({ deadline: true });
  });
});
