/**
 * Runs the Action under `@github/local-action` (GitHub's debugger for JavaScript actions)
 * against the fake GitHub of test/fake-github, on one claim that needs enforcing:
 *
 *     npx tsx scripts/local-action.ts
 *
 * local-action imports src/action/main.ts and calls its exported run(), as GitHub's action
 * templates lay an action out. It is not a dev dependency: it brings some 230 packages and
 * 330 MB (and Node 22-only ones), so this script installs it into a temporary folder of its
 * own with `npm install`, runs it from there (it asks `npm ls` in its working folder for the
 * toolkit packages it stubs, and claim-warden has none), and removes the folder afterwards.
 * Exits 0 when the issue ended claimed by alice, as the Action should leave it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimComment } from '../test/e2e/e2e-helpers.js';
import { startFakeGitHub } from '../test/fake-github/fake-github.js';

const LOCAL_ACTION = '@github/local-action@7.0.1';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = 'acme/widgets';

const dir = mkdtempSync(join(tmpdir(), 'claim-warden-local-action-'));
const fake = await startFakeGitHub({ appSlug: 'github-actions', log: () => {} });
let status = 1;
try {
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'claim-warden-local-action', private: true, type: 'module' }),
  );
  process.stdout.write(`installing ${LOCAL_ACTION} into ${dir}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', LOCAL_ACTION], {
    cwd: dir,
    stdio: 'inherit',
  });

  // A workflow's view of GitHub: a repository the workflow token writes to, one issue, and the
  // issue_comment event of alice's claim on it (a webhook payload without the installation).
  fake.addInstallation({ id: 1, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.setWebhookTarget({ capture: true });
  const issue = fake.createIssue(REPO);
  fake.addComment(REPO, issue, { author: 'alice', body: claimComment('s-1') });
  const { installation: _installation, ...payload } = fake.deliveries.at(-1)?.payload ?? {};
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(payload));

  // The variables the runner would set, and the Action's inputs as INPUT_* (action.yml).
  const dotenv = join(dir, '.env');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  writeFileSync(
    dotenv,
    [
      'GITHUB_ACTIONS=true',
      'GITHUB_EVENT_NAME=issue_comment',
      `GITHUB_EVENT_PATH=${eventPath}`,
      `GITHUB_REPOSITORY=${REPO}`,
      `GITHUB_API_URL=${fake.apiUrl}`,
      `GITHUB_STEP_SUMMARY=${summary}`,
      `INPUT_GITHUB-TOKEN=${fake.installationToken(1)}`,
      'INPUT_STALE-AFTER=6h',
      '',
    ].join('\n'),
  );

  // Asynchronous: the fake GitHub answers in this process while local-action runs.
  const ran = await new Promise<number | null>((resolve, reject) => {
    const run = spawn(
      join(dir, 'node_modules/.bin/local-action'),
      ['run', ROOT, 'src/action/main.ts', dotenv],
      { cwd: dir, stdio: 'inherit' },
    );
    run.on('error', reject);
    run.on('close', resolve);
  });
  const after = fake.issue(REPO, issue);
  process.stdout.write(
    `\nlocal-action exited ${ran}; issue #${issue} now has labels ${JSON.stringify(after?.labels)}` +
      ` and assignees ${JSON.stringify(after?.assignees)}\n`,
  );
  const claimed =
    after?.labels.includes('status:in-progress') === true &&
    after.assignees.includes('alice') === true;
  status = ran === 0 && claimed ? 0 : 1;
} finally {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = status;
