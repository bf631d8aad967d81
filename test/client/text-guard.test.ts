import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { githubClient } from '../../src/client/io/github-client.js';
import { textGuard } from '../../src/client/io/text-guard.js';
import { type Harness, harness, issueNumber, REPO } from './harness.js';

describe('textGuard', () => {
  const guard = textGuard([
    { kind: 'session', value: 'unit7' },
    { kind: 'lane', value: 'night-shift' },
    { kind: 'hostname', value: 'build-host-7' },
    { kind: 'private name', value: 'Project Nightjar' },
    { kind: 'session', value: 'h:5f4dcc3b5aa7' },
  ]);

  it.each([
    ['branch feat/unit7-fix', 'session'],
    ['UNIT7 finished', 'session'],
    ['(unit7)', 'session'],
    ['on the night-shift lane', 'lane'],
    ['ran on Build-Host-7.', 'hostname'],
    ['for project nightjar', 'private name'],
  ])('finds a protected value in %j: %s', (text, kind) => {
    expect(guard.find(text)).toBe(kind);
  });

  it.each([
    'unit70 is another session',
    'unit7x',
    'the nightjar project',
    'build-host-70',
    'session h:5f4dcc3b5aa7',
    'nothing here',
  ])('leaves %j alone (word boundaries; a tag is public)', (text) => {
    expect(guard.find(text)).toBeNull();
  });

  it('refuses naming the kind, never the value', () => {
    let message = '';
    try {
      guard.check('done by unit7');
    } catch (error) {
      message = (error as Error).message;
      expect(error).toMatchObject({ kind: 'refused', data: { protected: 'session' } });
    }
    expect(message).toContain('protected session');
    expect(message).not.toContain('unit7');
  });

  it('treats regular-expression characters in values literally', () => {
    const special = textGuard([{ kind: 'private name', value: 'a.b+c' }]);
    expect(special.find('see a.b+c now')).toBe('private name');
    expect(special.find('see aXb+c now')).toBeNull();
  });
});

describe('the guard on every write path', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  it.each([
    ['the session', { branch: 'feat/unit7-fix' }, 'session'],
    ['the lane', { branch: 'lane-a/fix' }, 'lane'],
    ['the hostname', { branch: 'build-host-7' }, 'hostname'],
  ])(
    'a claim whose branch carries %s is refused naming the kind, and nothing is written',
    async (_, { branch }, kind) => {
      const ref = h.issue();
      h.fake.clearRequests();
      const result = await h.run('claim', { issue: ref, session: 'unit7', lane: 'lane-a', branch });
      expect(result.status).toBe('refused');
      expect(result.data).toMatchObject({ protected: kind });
      expect(result.message).not.toContain(branch);
      expect(h.fake.requests).toEqual([]);
    },
  );

  it('refuses a note carrying a line of private-names.txt, case-insensitively', async () => {
    await writeFile(
      join(h.configDir, 'private-names.txt'),
      '\n  Project Nightjar  \n\nacme-internal\n',
    );
    const ref = h.issue();
    await h.run('claim', { issue: ref, session: 'unit7', lane: 'lane-a', branch: 'feat/x' });
    const [comment] = h.fake.comments(REPO, issueNumber(ref));
    const before = comment!.body;

    const result = await h.run('status', {
      issue: ref,
      session: 'unit7',
      stage: 'blocked',
      note: 'blocked on PROJECT NIGHTJAR',
    });
    expect(result.status).toBe('refused');
    expect(result.message).toContain('protected private name');
    expect(h.fake.comment(comment!.id)!.body).toBe(before);

    const ok = await h.run('status', {
      issue: ref,
      session: 'unit7',
      stage: 'blocked',
      note: 'nightjars are birds',
    });
    expect(ok.status).toBe('ok');
  });

  it('refuses a release note carrying the session before anything is written', async () => {
    const ref = h.issue();
    await h.run('claim', { issue: ref, session: 'unit7', lane: 'lane-a', branch: 'feat/x' });
    h.fake.clearRequests();
    const result = await h.run('release', {
      issue: ref,
      session: 'unit7',
      outcome: 'landed',
      note: 'unit7 is done',
    });
    expect(result.status).toBe('refused');
    expect(h.fake.writes()).toEqual([]);
  });

  it('is enforced by the client itself: no write can skip it', async () => {
    const ref = h.issue();
    const octokit = githubClient({
      token: h.fake.tokenFor('alice'),
      baseUrl: h.fake.apiUrl,
      signal: new AbortController().signal,
      guard: textGuard([{ kind: 'hostname', value: 'build-host-7' }]),
    });
    h.fake.clearRequests();
    await expect(
      octokit.rest.issues.createComment({
        owner: 'acme',
        repo: 'widgets',
        issue_number: issueNumber(ref),
        body: 'from build-host-7',
      }),
    ).rejects.toMatchObject({ kind: 'refused', data: { protected: 'hostname' } });
    await expect(
      octokit.rest.issues.update({
        owner: 'acme',
        repo: 'widgets',
        issue_number: issueNumber(ref),
        title: 'build-host-7 broke',
      }),
    ).rejects.toMatchObject({ kind: 'refused' });
    expect(h.fake.requests).toEqual([]);
  });
});
