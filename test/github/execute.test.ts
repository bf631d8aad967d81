import { pino } from 'pino';
import { ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executePlan, KnownLabels } from '../../src/github/execute.js';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/fake-github.js';

const REPO = 'acme/widgets';

let fake: FakeGitHub;
beforeEach(async () => {
  fake = await startFakeGitHub({ log: () => undefined });
  fake.addInstallation({ id: 1, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'MEMBER' });
});
afterEach(async () => {
  await fake.close();
});

function octokit(token: string): ProbotOctokit {
  return new ProbotOctokit({
    auth: { token },
    baseUrl: fake.apiUrl,
    retry: { enabled: false },
    throttle: { enabled: false },
  });
}

describe('executePlan with a writer per kind', () => {
  it('writes the session’s own comment with its token and the issue state with the app’s', async () => {
    const number = fake.createIssue(REPO);
    const key = { installationId: 1, owner: 'acme', repo: 'widgets', number };
    const writers = {
      own: octokit(fake.tokenFor('alice')),
      app: octokit(fake.installationToken(1)),
    };

    const { posted } = await executePlan(
      writers,
      key,
      {
        actions: [
          { kind: 'post-claim', body: 'a claim' },
          { kind: 'add-label', label: 'status:in-progress', role: 'inProgress' },
          { kind: 'assign', login: 'alice' },
        ],
      },
      { knownLabels: new KnownLabels() },
    );

    expect(posted).toMatchObject([{ author: 'alice', body: 'a claim' }]);
    const actors = fake.writes().map((r) => `${r.method} ${r.path.split('/').at(-1)} ${r.actor}`);
    expect(actors).toEqual([
      'POST comments alice',
      `POST labels ${fake.botLogin}`,
      `POST labels ${fake.botLogin}`,
      `POST assignees ${fake.botLogin}`,
    ]);
    const issue = fake.issue(REPO, number);
    expect(issue.labels).toEqual(['status:in-progress']);
    expect(issue.assignees).toEqual(['alice']);
  });

  it('edits and deletes the session’s own comments with one octokit for everything', async () => {
    const number = fake.createIssue(REPO);
    const first = fake.addComment(REPO, number, { author: 'alice', body: 'old' }).id;
    const second = fake.addComment(REPO, number, { author: 'alice', body: 'legacy' }).id;
    const key = { installationId: 0, owner: 'acme', repo: 'widgets', number };

    const { posted } = await executePlan(
      octokit(fake.tokenFor('alice')),
      key,
      {
        actions: [
          { kind: 'edit-claim', commentId: first, body: 'new' },
          { kind: 'delete-comment', commentId: second },
        ],
      },
      { knownLabels: new KnownLabels() },
    );

    expect(posted).toEqual([]);
    expect(fake.comments(REPO, number).map((c) => c.body)).toEqual(['new']);
  });
});

describe('the react action (docs/protocol.md §16)', () => {
  it('leaves the app’s 👍 on the comment once, however often it is sent', async () => {
    const number = fake.createIssue(REPO);
    const command = fake.addComment(REPO, number, { author: 'alice', body: '/claim' }).id;
    const key = { installationId: 1, owner: 'acme', repo: 'widgets', number };
    const plan = { actions: [{ kind: 'react' as const, commentId: command }] };

    await executePlan(octokit(fake.installationToken(1)), key, plan, {});
    await executePlan(octokit(fake.installationToken(1)), key, plan, {});

    expect(fake.reactions(command).map((r) => `${r.user} ${r.content}`)).toEqual([
      `${fake.botLogin} +1`,
    ]);
    fake.assertValid();
  });

  it('sends no reaction in observe mode, nor with enabled: false', async () => {
    const number = fake.createIssue(REPO);
    const command = fake.addComment(REPO, number, { author: 'alice', body: '/claim' }).id;
    const key = { installationId: 1, owner: 'acme', repo: 'widgets', number };
    const plan = { actions: [{ kind: 'react' as const, commentId: command }] };
    const log = pino({ level: 'silent' });
    fake.clearRequests();

    const observed = await executePlan(octokit(fake.installationToken(1)), key, plan, {
      rollout: { enabled: true, mode: 'observe', log },
    });
    const disabled = await executePlan(octokit(fake.installationToken(1)), key, plan, {
      rollout: { enabled: false, mode: 'enforce', log },
    });

    expect([observed.outcome, disabled.outcome]).toEqual(['observed', 'disabled']);
    expect(fake.writes()).toEqual([]);
    expect(fake.reactions(command)).toEqual([]);
  });
});
