/** Which work one workflow run is asked for, from its event alone (docs/protocol.md §15). */
import { describe, expect, it } from 'vitest';
import { ACTION_INSTALLATION_ID, routeActionEvent } from '../../src/action/route-action-event.js';
import { claimComment } from '../e2e/e2e-helpers.js';

const here = { owner: 'acme', repo: 'widgets' };
const now = new Date('2026-10-08T12:00:00Z');
const repository = { name: 'widgets', owner: { login: 'acme' } };

function commentEvent(
  sender: string,
  body: string,
  options: { association?: string; type?: string; pullRequest?: boolean } = {},
) {
  return {
    action: 'created',
    sender: { login: sender },
    repository,
    issue: { number: 12, ...(options.pullRequest ? { pull_request: { url: 'x' } } : {}) },
    comment: {
      id: 99,
      body,
      author_association: options.association ?? 'COLLABORATOR',
      user: { login: sender, type: options.type ?? 'User' },
    },
  };
}

const claim = claimComment('s-1', { at: now });

describe('routeActionEvent', () => {
  it.each([
    ['schedule', {}],
    ['workflow_dispatch', { inputs: {} }],
  ])('%s sweeps the repository', (event, payload) => {
    expect(routeActionEvent(event, payload, here, now)).toEqual({ kind: 'sweep' });
  });

  it.each([
    ['issue_comment', commentEvent('github-actions[bot]', claim)],
    ['issues', { action: 'labeled', sender: { login: 'GitHub-Actions[bot]' } }],
    ['schedule', { sender: { login: 'github-actions[bot]' } }],
  ])('%s sent by github-actions[bot] is its own write: nothing to do', (event, payload) => {
    expect(routeActionEvent(event, payload, here, now)).toEqual({
      kind: 'ignore',
      why: 'own write',
    });
  });

  it('a trusted claim comment reconciles its issue, keyed to the run', () => {
    expect(routeActionEvent('issue_comment', commentEvent('alice', claim), here, now)).toEqual({
      kind: 'issue',
      request: {
        key: { installationId: ACTION_INSTALLATION_ID, owner: 'acme', repo: 'widgets', number: 12 },
        hints: [],
        reason: 'issue_comment.created',
      },
    });
  });

  it.each([
    ['a comment without a marker', commentEvent('alice', 'I can reproduce this.'), 'no marker'],
    [
      'a marker from a passer-by',
      commentEvent('mallory', claim, { association: 'NONE' }),
      'untrusted author',
    ],
    [
      'a marker on a pull request',
      commentEvent('alice', claim, { pullRequest: true }),
      'pull request',
    ],
  ])('%s costs no call', (_what, payload, why) => {
    expect(routeActionEvent('issue_comment', payload, here, now)).toEqual({ kind: 'ignore', why });
  });

  it('a bot marker waits for the config: only a trusted bot counts', () => {
    const payload = commentEvent('my-agent[bot]', claim, { association: 'NONE', type: 'Bot' });
    expect(routeActionEvent('issue_comment', payload, here, now)).toMatchObject({
      kind: 'issue',
      bot: 'my-agent[bot]',
    });
  });

  it('a label event carries its label and who changed it', () => {
    const payload = {
      action: 'unlabeled',
      sender: { login: 'maria' },
      repository,
      issue: { number: 12, updated_at: '2026-10-08T11:59:00Z' },
      label: { name: 'status:in-progress' },
    };
    expect(routeActionEvent('issues', payload, here, now)).toMatchObject({
      kind: 'issue',
      label: 'status:in-progress',
      request: {
        hints: [
          {
            kind: 'label-removed',
            label: 'status:in-progress',
            by: 'maria',
            at: '2026-10-08T11:59:00Z',
          },
        ],
      },
    });
  });

  it('an issue transferred to another repository is not this run’s to write', () => {
    const payload = {
      action: 'transferred',
      sender: { login: 'maria' },
      repository,
      issue: { number: 12 },
      changes: {
        new_issue: { number: 3 },
        new_repository: { name: 'gadgets', owner: { login: 'acme' } },
      },
    };
    expect(routeActionEvent('issues', payload, here, now)).toEqual({
      kind: 'ignore',
      why: 'the issue moved to another repository',
    });
  });

  it.each([
    ['push', { ref: 'refs/heads/main' }, 'the push event is not one the Action handles'],
    [
      'issues',
      { action: 'opened', sender: { login: 'maria' }, repository, issue: { number: 1 } },
      'issues.opened is not handled',
    ],
  ])('%s is left alone', (event, payload, why) => {
    expect(routeActionEvent(event, payload, here, now)).toEqual({ kind: 'ignore', why });
  });

  it('a payload without the fields GitHub sends is malformed, naming the field', () => {
    const route = routeActionEvent('issue_comment', { action: 'created', repository }, here, now);
    expect(route).toMatchObject({ kind: 'malformed' });
    expect(route.kind === 'malformed' && route.problem).toContain('issue');
  });
});
