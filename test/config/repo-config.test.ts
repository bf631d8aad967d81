import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadRepoConfig } from '../../src/config/load-repo-config.js';
import { parseRepoConfig } from '../../src/config/parse-repo-config.js';
import {
  queueSettings,
  type RepoConfigResult,
  type ResolvedRepoConfig,
} from '../../src/config/repo-config.js';
import { RepoConfigCache } from '../../src/config/repo-config-cache.js';

const m = 60_000;
const h = 60 * m;
const defaults = { staleAfterMs: 6 * h };

const DEFAULT_CONFIG: ResolvedRepoConfig = {
  staleAfterMs: 6 * h,
  labels: {
    inProgress: 'status:in-progress',
    blocked: 'status:blocked',
    needsReview: 'status:needs-review',
  },
  assign: true,
  notifyOnExpiry: true,
  enforceLabels: true,
  trustedBots: [],
  notify: [],
  pathGuard: 'fail',
  heartbeatOnPush: true,
  mode: 'enforce',
  enabled: true,
  hosted: ['Copilot', 'copilot-swe-agent', 'claude', 'chatgpt-codex-connector'],
  people: {
    who: 'collaborators',
    labels: [],
    maxClaims: 0,
    staleAfterMs: 14 * 24 * h,
    remindAfterMs: 10 * 24 * h,
    expire: 'commands',
    handover: 'maintain',
    pinnedLabel: 'claim:pinned',
  },
};

function errorOf(raw: unknown): string {
  const result = parseRepoConfig(raw, defaults);
  if (result.ok) throw new Error('the config was accepted');
  return result.error;
}

describe('parseRepoConfig', () => {
  it('an empty file means the defaults, with the operator stale window', () => {
    expect(parseRepoConfig({}, { staleAfterMs: 2 * h })).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, staleAfterMs: 2 * h },
    });
  });

  it('reads every field of docs/protocol.md §7', () => {
    const raw = {
      staleAfter: '1h30m',
      labels: { inProgress: 'claimed', blocked: 'claimed: blocked 🚧', needsReview: 'review me' },
      assign: false,
      notifyOnExpiry: false,
      enforceLabels: false,
      trustedBots: ['my-agent[bot]', 'machine-user'],
      notify: ['@alice', 'bob', '@acme/maintainers'],
      pathGuard: 'warn',
      heartbeatOnPush: false,
      mode: 'observe',
      enabled: false,
      people: { enabled: false },
      agents: { hosted: ['my-agent[bot]'] },
    };
    expect(parseRepoConfig(raw, defaults)).toEqual({
      ok: true,
      config: {
        staleAfterMs: 90 * m,
        labels: { inProgress: 'claimed', blocked: 'claimed: blocked 🚧', needsReview: 'review me' },
        assign: false,
        notifyOnExpiry: false,
        enforceLabels: false,
        trustedBots: ['my-agent[bot]', 'machine-user'],
        notify: ['alice', 'bob', 'acme/maintainers'],
        pathGuard: 'warn',
        heartbeatOnPush: false,
        mode: 'observe',
        enabled: false,
        hosted: ['my-agent[bot]'],
      },
    });
  });

  it.each([
    [
      { mode: 'dry-run' },
      'mode: must be enforce or observe (decide and log, write nothing) (got "dry-run")',
    ],
    [{ enabled: 'no' }, 'enabled: must be true or false (got "no")'],
    [{ mod: 'observe' }, 'unknown key "mod" (did you mean "mode"?)'],
  ])('a bad rollout key %j is named with what it must hold', (raw, message) => {
    expect(errorOf(raw)).toBe(message);
  });

  it('a partial labels mapping keeps the default for the other label', () => {
    const result = parseRepoConfig({ labels: { blocked: 'on-hold' } }, defaults);
    expect(result).toMatchObject({
      ok: true,
      config: { labels: { inProgress: 'status:in-progress', blocked: 'on-hold' } },
    });
  });

  it.each([
    ['10m', 10 * m],
    ['720h', 720 * h],
    ['30d', 720 * h],
  ])('accepts staleAfter %s at the bounds', (staleAfter, ms) => {
    expect(parseRepoConfig({ staleAfter }, defaults)).toMatchObject({
      ok: true,
      config: { staleAfterMs: ms },
    });
  });

  it.each([
    ['9m', 'staleAfter: must be a duration between 10m and 720h, such as 6h (got "9m")'],
    ['721h', 'staleAfter: must be a duration between 10m and 720h, such as 6h (got "721h")'],
    ['6 hours', 'staleAfter: must be a duration between 10m and 720h, such as 6h (got "6 hours")'],
    [6, 'staleAfter: must be a duration between 10m and 720h, such as 6h (got 6)'],
  ])('refuses staleAfter %s out of bounds or unreadable', (staleAfter, error) => {
    expect(errorOf({ staleAfter })).toBe(error);
  });

  it.each([
    ['stalAfter', '6h', 'unknown key "stalAfter" (did you mean "staleAfter"?)'],
    ['trustedbots', [], 'unknown key "trustedbots" (did you mean "trustedBots"?)'],
    ['version', 1, 'unknown key "version"'],
  ])('refuses the unknown key %s', (key, value, error) => {
    expect(errorOf({ [key]: value })).toBe(error);
  });

  it.each([
    ['pathGuard', 'strict', 'pathGuard: must be one of fail, warn or off (got "strict")'],
    ['heartbeatOnPush', 'yes', 'heartbeatOnPush: must be true or false (got "yes")'],
  ])('refuses a bad %s naming what it should hold', (key, value, error) => {
    expect(errorOf({ [key]: value })).toBe(error);
  });

  it('refuses an unknown key inside labels, naming where', () => {
    expect(errorOf({ labels: { in_progress: 'x' } })).toBe(
      'labels: unknown key "in_progress" (did you mean "inProgress"?)',
    );
  });

  it.each([
    [
      'labels',
      'status:x',
      'labels: must be a mapping with inProgress, blocked and/or needsReview (got "status:x")',
    ],
    [
      'labels',
      ['a'],
      'labels: must be a mapping with inProgress, blocked and/or needsReview (got ["a"])',
    ],
    ['assign', 'yes', 'assign: must be true or false (got "yes")'],
    ['notifyOnExpiry', 1, 'notifyOnExpiry: must be true or false (got 1)'],
    ['enforceLabels', null, 'enforceLabels: must be true or false (got null)'],
    [
      'trustedBots',
      'my-agent[bot]',
      'trustedBots: must be a list of GitHub logins such as ["my-agent[bot]"] (got "my-agent[bot]")',
    ],
    [
      'notify',
      'alice',
      'notify: must be a list of logins or teams such as ["alice", "@acme/maintainers"] (got "alice")',
    ],
  ])('refuses %s of the wrong type, naming the field', (field, value, error) => {
    expect(errorOf({ [field]: value })).toBe(error);
  });

  it.each<[string, unknown, string]>([
    ['inProgress', '', 'empty'],
    ['inProgress', 'x'.repeat(51), '51 characters'],
    ['blocked', ' blocked', 'a leading space'],
    ['blocked', 42, 'a number'],
  ])('refuses labels.%s holding %j (%s)', (field, value) => {
    expect(errorOf({ labels: { [field]: value } })).toMatch(
      new RegExp(`^labels\\.${field}: must be a label name of 1 to 50 characters`),
    );
  });

  it('accepts a label of 50 characters, counting an emoji as one', () => {
    const name = `${'x'.repeat(49)}🚧`;
    expect(parseRepoConfig({ labels: { inProgress: name } }, defaults).ok).toBe(true);
  });

  it('refuses one label for both states, whatever the case', () => {
    expect(errorOf({ labels: { needsReview: 'Status:Blocked' } })).toBe(
      'labels.needsReview: must differ from labels.inProgress and labels.blocked (GitHub compares label names without case) (got "Status:Blocked")',
    );
    expect(errorOf({ labels: { inProgress: 'Status:Blocked' } })).toBe(
      'labels.blocked: must differ from labels.inProgress (GitHub compares label names without case)',
    );
  });

  it.each([['my-agent[bot]'], ['Renovate[bot]'], ['octocat'], ['a'], ['a-b-c'], ['x'.repeat(39)]])(
    'accepts the trusted login %s',
    (login) => {
      expect(parseRepoConfig({ trustedBots: [login] }, defaults).ok).toBe(true);
    },
  );

  it.each([
    ['@my-agent[bot]'],
    ['my agent[bot]'],
    ['-agent'],
    ['agent-'],
    ['a--b'],
    ['my-agent[app]'],
    [''],
    ['x'.repeat(40)],
  ])('refuses the trusted login %j, naming its index', (login) => {
    expect(errorOf({ trustedBots: ['ok[bot]', login] })).toBe(
      `trustedBots[1]: must be a GitHub login such as "my-agent[bot]" (no @, no spaces) (got ${JSON.stringify(login)})`,
    );
  });

  it('names every bad field at once', () => {
    const error = errorOf({ staleAfter: '1m', assign: 'no', stalAfter: '6h' });
    expect(error.split('; ')).toEqual([
      'staleAfter: must be a duration between 10m and 720h, such as 6h (got "1m")',
      'assign: must be true or false (got "no")',
      'unknown key "stalAfter" (did you mean "staleAfter"?)',
    ]);
  });

  it.each([[null], [[]], ['staleAfter: 6h'], [42]])(
    'refuses a file that is not a mapping: %j',
    (raw) => {
      expect(errorOf(raw)).toMatch(/^the file must be a mapping/);
    },
  );
});

describe('loadRepoConfig', () => {
  const API = 'https://api.github.com';
  const REPO_FILE = '/repos/o/r/contents/.github%2Fclaims.yml';
  const ORG_FILE = '/repos/o/.github/contents/.github%2Fclaims.yml';
  // A real ProbotOctokit, so the config plugin is the one Probot ships; retries off so a
  // failure shows at once.
  const octokit = new ProbotOctokit({
    auth: { token: 'installation-token' },
    throttle: { enabled: false },
    retry: { enabled: false },
  });

  // Test files share a process: nock is turned on for this file and off after it.
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });

  function file(path: string, yaml: string) {
    nock(API).get(path).reply(200, yaml, { 'content-type': 'text/plain; charset=utf-8' });
  }
  function missing(path: string) {
    nock(API).get(path).reply(404, { message: 'Not Found' });
  }
  const load = () => loadRepoConfig(octokit, { owner: 'o', repo: 'r' }, defaults);

  it('absent: no file in the repository nor in the org .github repository means the defaults', async () => {
    missing(REPO_FILE);
    missing(ORG_FILE);
    expect(await load()).toEqual({ kind: 'absent', config: DEFAULT_CONFIG });
  });

  it("loaded: the repository's file", async () => {
    file(
      REPO_FILE,
      'staleAfter: 2h\nlabels:\n  blocked: on-hold\ntrustedBots:\n  - my-agent[bot]\n',
    );
    expect(await load()).toEqual({
      kind: 'loaded',
      config: {
        ...DEFAULT_CONFIG,
        staleAfterMs: 2 * h,
        labels: {
          inProgress: 'status:in-progress',
          blocked: 'on-hold',
          needsReview: 'status:needs-review',
        },
        trustedBots: ['my-agent[bot]'],
      },
      sources: ['o/r:.github/claims.yml'],
    });
  });

  it("loaded: the org's .github repository when the repository has no file", async () => {
    missing(REPO_FILE);
    file(ORG_FILE, 'assign: false\n');
    expect(await load()).toMatchObject({
      kind: 'loaded',
      config: { assign: false },
      sources: ['o/.github:.github/claims.yml'],
    });
  });

  it('loaded: _extends merges the named file under the repository file', async () => {
    file(REPO_FILE, '_extends: shared\nassign: false\n');
    file('/repos/o/shared/contents/.github%2Fclaims.yml', 'assign: true\nenforceLabels: false\n');
    expect(await load()).toMatchObject({
      kind: 'loaded',
      config: { assign: false, enforceLabels: false },
      sources: ['o/r:.github/claims.yml', 'o/shared:.github/claims.yml'],
    });
  });

  it('loaded: an empty file means the defaults', async () => {
    file(REPO_FILE, '');
    expect(await load()).toMatchObject({ kind: 'loaded', config: DEFAULT_CONFIG });
  });

  it('invalid: a bad field is named', async () => {
    file(REPO_FILE, 'stalAfter: 6h\nlabels:\n  inProgress: ""\n');
    expect(await load()).toEqual({
      kind: 'invalid',
      error:
        'labels.inProgress: must be a label name of 1 to 50 characters, without leading or trailing spaces (got ""); unknown key "stalAfter" (did you mean "staleAfter"?)',
      sources: ['o/r:.github/claims.yml'],
    });
  });

  it('invalid: a file that is a plain string', async () => {
    file(REPO_FILE, 'just some text\n');
    expect(await load()).toMatchObject({ kind: 'invalid', error: /YAML is not an object/ });
  });

  it('invalid: an _extends that loops', async () => {
    file(REPO_FILE, '_extends: a\n');
    file('/repos/o/a/contents/.github%2Fclaims.yml', '_extends: b\n');
    file('/repos/o/b/contents/.github%2Fclaims.yml', '_extends: a\n');
    expect(await load()).toMatchObject({ kind: 'invalid', error: /Recursion detected/ });
  });

  it('unreadable: a YAML syntax error, with where it is', async () => {
    file(REPO_FILE, 'staleAfter: 6h\nlabels: [unclosed\n');
    const result = await load();
    expect(result.kind).toBe('unreadable');
    expect(result).toMatchObject({ message: /invalid YAML\): .*line \d+/ });
  });

  it('unreadable: an unquoted bot login in a flow list is a YAML error, not a login', async () => {
    // `[my-agent[bot]]` does not parse: in a [...] list the login must be quoted.
    file(REPO_FILE, 'trustedBots: [my-agent[bot]]\n');
    expect(await load()).toMatchObject({
      kind: 'unreadable',
      message:
        /\(invalid YAML\): Missing , or : between flow sequence items at line 1, column \d+$/,
    });
  });

  it.each([
    [500, 'Server Error'],
    [403, 'Resource not accessible by integration'],
    [401, 'Bad credentials'],
  ])('unreadable: GitHub answers %d', async (status, message) => {
    nock(API).get(REPO_FILE).reply(status, { message });
    const result = await load();
    expect(result).toMatchObject({ kind: 'unreadable', error: { status } });
  });

  it('unreadable: the org fallback fails though the repository has no file', async () => {
    missing(REPO_FILE);
    nock(API).get(ORG_FILE).reply(502, { message: 'Bad Gateway' });
    expect(await load()).toMatchObject({ kind: 'unreadable', error: { status: 502 } });
  });

  it('invalid: a fake reader works too (the interface is the plugin API)', async () => {
    const reader = {
      config: {
        get: async () => ({
          config: { assign: 'sometimes' },
          files: [{ owner: 'o', repo: 'r', path: '.github/claims.yml', url: 'u', config: {} }],
        }),
      },
    };
    expect(await loadRepoConfig(reader, { owner: 'o', repo: 'r' }, defaults)).toMatchObject({
      kind: 'invalid',
      error: 'assign: must be true or false (got "sometimes")',
    });
  });
});

describe('RepoConfigCache', () => {
  const where = { owner: 'o', repo: 'r' };
  const loaded: RepoConfigResult = { kind: 'loaded', config: DEFAULT_CONFIG, sources: [] };
  const invalid: RepoConfigResult = { kind: 'invalid', error: 'assign: ...', sources: [] };
  const unreadable: RepoConfigResult = {
    kind: 'unreadable',
    error: new Error('500'),
    message: '500',
  };

  function setup(ttlMs = 60_000, maxEntries?: number) {
    let now = 1_000_000;
    const cache = new RepoConfigCache({
      ttlMs,
      now: () => now,
      ...(maxEntries ? { maxEntries } : {}),
    });
    let loads = 0;
    const loader = (result: RepoConfigResult) => async () => {
      loads += 1;
      return result;
    };
    return {
      cache,
      loader,
      loads: () => loads,
      advance: (ms: number) => {
        now += ms;
      },
    };
  }

  it('serves a loaded config from the cache until the TTL passes', async () => {
    const { cache, loader, loads, advance } = setup();
    expect(await cache.get(where, loader(loaded))).toBe(loaded);
    advance(59_999);
    await cache.get(where, loader(loaded));
    expect(loads()).toBe(1);
    advance(1);
    await cache.get(where, loader(loaded));
    expect(loads()).toBe(2);
  });

  it('caches an invalid config, so a broken file is not fetched in a loop', async () => {
    const { cache, loader, loads } = setup();
    await cache.get(where, loader(invalid));
    expect(await cache.get(where, loader(loaded))).toBe(invalid);
    expect(loads()).toBe(1);
  });

  it('does not cache an unreadable config, so the retry fetches again', async () => {
    const { cache, loader, loads } = setup();
    await cache.get(where, loader(unreadable));
    expect(await cache.get(where, loader(loaded))).toBe(loaded);
    expect(loads()).toBe(2);
  });

  it('shares one fetch between concurrent loads of a repository', async () => {
    const { cache, loader, loads } = setup();
    const results = await Promise.all([
      cache.get(where, loader(loaded)),
      cache.get({ owner: 'O', repo: 'R' }, loader(loaded)),
    ]);
    expect(results).toEqual([loaded, loaded]);
    expect(loads()).toBe(1);
  });

  it('a TTL of 0 caches nothing', async () => {
    const { cache, loader, loads } = setup(0);
    await cache.get(where, loader(loaded));
    await cache.get(where, loader(loaded));
    expect(loads()).toBe(2);
  });

  it('invalidate forgets a repository', async () => {
    const { cache, loader, loads } = setup();
    await cache.get(where, loader(loaded));
    cache.invalidate({ owner: 'O', repo: 'r' });
    await cache.get(where, loader(loaded));
    expect(loads()).toBe(2);
  });

  it('keeps at most maxEntries repositories, dropping the oldest', async () => {
    const { cache, loader, loads } = setup(60_000, 2);
    for (const repo of ['a', 'b', 'c']) await cache.get({ owner: 'o', repo }, loader(loaded));
    await cache.get({ owner: 'o', repo: 'c' }, loader(loaded));
    expect(loads()).toBe(3);
    await cache.get({ owner: 'o', repo: 'a' }, loader(loaded));
    expect(loads()).toBe(4);
  });

  it('a failing load is not cached and reaches the caller', async () => {
    const { cache } = setup();
    await expect(cache.get(where, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await cache.get(where, async () => loaded)).toBe(loaded);
  });
});

describe('queue settings (docs/protocol.md §9)', () => {
  it('without a queue key, nothing is required and the blocked label is excluded', () => {
    expect(queueSettings(DEFAULT_CONFIG)).toEqual({
      labels: [],
      exclude: ['status:blocked'],
      needsReview: 'status:needs-review',
    });
  });

  it('reads queue.labels and queue.exclude', () => {
    const result = parseRepoConfig(
      { queue: { labels: ['ready'], exclude: ['wontfix'] } },
      defaults,
    );
    if (!result.ok) throw new Error(result.error);
    expect(queueSettings(result.config)).toEqual({
      labels: ['ready'],
      exclude: ['wontfix'],
      needsReview: 'status:needs-review',
    });
  });

  it('queue.exclude defaults to the repository’s blocked label', () => {
    const result = parseRepoConfig(
      { labels: { blocked: 'stuck' }, queue: { labels: ['ready'] } },
      defaults,
    );
    if (!result.ok) throw new Error(result.error);
    expect(queueSettings(result.config)).toEqual({
      labels: ['ready'],
      exclude: ['stuck'],
      needsReview: 'status:needs-review',
    });
  });

  it.each([
    [{ queue: { lables: [] } }, 'queue: unknown key "lables" (did you mean "labels"?)'],
    [{ queue: { labels: 'ready' } }, 'queue.labels: must be a list of label names'],
    [{ queue: ['ready'] }, 'queue: must be a mapping with labels and/or exclude'],
  ])('%j is refused naming the field', (raw, message) => {
    expect(errorOf(raw)).toContain(message);
  });
});
