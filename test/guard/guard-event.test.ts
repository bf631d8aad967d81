import { describe, expect, it } from 'vitest';
import {
  PullRequestPayload,
  PushPayload,
  pullEvent,
  pushEvent,
} from '../../src/guard/guard-event.js';
import {
  checkPullRequestOf,
  guardJobsOf,
  heartbeatRequestOf,
  needsReconcile,
} from '../../src/guard/guard-request.js';

const now = new Date('2030-01-01T12:00:00Z');
const repository = {
  name: 'widgets',
  full_name: 'acme/widgets',
  owner: { login: 'acme' },
  default_branch: 'main',
};

function push(overrides: Record<string, unknown> = {}) {
  return PushPayload.parse({
    ref: 'refs/heads/feat/x',
    after: 'f'.repeat(40),
    repository: { ...repository, pushed_at: Date.parse('2030-01-01T11:59:00Z') / 1000 },
    sender: { login: 'alice' },
    commits: [{ added: [], modified: ['src/a.ts'], removed: [] }],
    ...overrides,
  });
}

function pull(action: string, headRepo: string | null = 'acme/widgets') {
  return PullRequestPayload.parse({
    action,
    repository,
    pull_request: {
      number: 12,
      head: { ref: 'feat/x', sha: 'a'.repeat(40), repo: headRepo ? { full_name: headRepo } : null },
    },
  });
}

describe('guard events (docs/protocol.md §11)', () => {
  it('a push names its branch, its pusher and the time GitHub took it', () => {
    expect(pushEvent(push(), 7, now)).toEqual({
      kind: 'push',
      repo: { installationId: 7, owner: 'acme', repo: 'widgets' },
      branch: 'feat/x',
      pusher: 'alice',
      at: '2030-01-01T11:59:00.000Z',
      sha: 'f'.repeat(40),
      configChanged: false,
    });
  });

  it.each([
    ['a tag', { ref: 'refs/tags/v1' }],
    ['a deleted branch', { deleted: true }],
  ])('%s is nothing to weigh', (_, overrides) => {
    expect(pushEvent(push(overrides), 7, now)).toBeNull();
  });

  it.each([
    ['modified on the default branch', 'main', { modified: ['.github/claims.yml'] }, true],
    ['added on the default branch', 'main', { added: ['.github/claims.yml'] }, true],
    ['removed on the default branch', 'main', { removed: ['.github/claims.yml'] }, true],
    ['modified on another branch', 'feat/x', { modified: ['.github/claims.yml'] }, false],
    ['another file on the default branch', 'main', { modified: ['claims.yml'] }, false],
  ])('claims.yml %s: config changed is %s', (_, branch, commit, changed) => {
    const event = pushEvent(push({ ref: `refs/heads/${branch}`, commits: [commit] }), 7, now);
    expect(event?.kind === 'push' && event.configChanged).toBe(changed);
  });

  it('a push time ahead of the clock is taken as now', () => {
    const ahead = push({ repository: { ...repository, pushed_at: now.getTime() / 1000 + 600 } });
    expect(pushEvent(ahead, 7, now)).toMatchObject({ at: now.toISOString() });
  });

  it.each([
    ['opened', true],
    ['reopened', true],
    ['synchronize', true],
    ['edited', true],
    ['closed', false],
    ['labeled', false],
  ])('pull_request.%s sets the check: %s', (action, checked) => {
    expect(pullEvent(pull(action), 7) !== null).toBe(checked);
  });

  it.each([
    ['acme/widgets', true],
    ['ACME/Widgets', true],
    ['mallory/widgets', false],
    [null, false],
  ])('a head in %s is the same repository: %s', (headRepo, same) => {
    expect(pullEvent(pull('opened', headRepo), 7)).toMatchObject({ head: { sameRepo: same } });
  });
});

describe('guard requests on the queue', () => {
  const key = { installationId: 7, owner: 'acme', repo: 'widgets', number: 12 };
  const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 12, minute));
  const head = (sha: string) => ({ sha, ref: 'feat/x', sameRepo: true });

  it('coalesced checks keep the newest head an event gave', () => {
    const a = checkPullRequestOf(key, head('a'), 'pull_request.opened', at(1));
    const b = checkPullRequestOf(key, head('b'), 'pull_request.synchronize', at(2));
    const re = checkPullRequestOf(key, undefined, 'recheck', at(3));
    const merged = { key, hints: [b.hints[0]!, re.hints[0]!, a.hints[0]!], reason: 'guard:x' };
    expect(guardJobsOf(merged).checkPull).toEqual({ head: head('b') });
    expect(guardJobsOf({ ...re }).checkPull).toEqual({});
  });

  it('coalesced pushes keep the latest', () => {
    const early = heartbeatRequestOf(key, {
      branch: 'feat/x',
      pusher: 'alice',
      at: at(1).toISOString(),
    });
    const late = heartbeatRequestOf(key, {
      branch: 'feat/x',
      pusher: 'alice',
      at: at(5).toISOString(),
    });
    const merged = { key, hints: [late.hints[0]!, early.hints[0]!], reason: 'guard:push' };
    expect(guardJobsOf(merged).heartbeat?.at).toBe(at(5).toISOString());
  });

  it.each([
    ['guard:push', false],
    ['guard:push, guard:recheck', false],
    ['guard:push, issue_comment.edited', true],
    ['sweep', true],
  ])('a request for %s needs a reconcile: %s', (reason, needed) => {
    expect(needsReconcile({ key, hints: [], reason })).toBe(needed);
  });
});
