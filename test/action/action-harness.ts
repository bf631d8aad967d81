import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/fake-github.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
/** The Action's program from source, as the tests run it (one test runs the bundle). */
export const ACTION_SOURCE = join(ROOT, 'src/action/index.ts');
export const ACTION_BUNDLE = join(ROOT, 'dist-action/index.mjs');
export const REPO = 'acme/widgets';

/** A workflow's view of GitHub: a fake whose installation tokens act as github-actions[bot]. */
export interface ActionHarness {
  readonly fake: FakeGitHub;
  /** What `${{ github.token }}` holds in the workflow. */
  readonly token: string;
  /** The webhook payload of whatever `change` does, as the runner writes GITHUB_EVENT_PATH. */
  payloadOf(change: () => void): Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * Starts a fake GitHub where `acme/widgets` is reachable with a workflow token (writes show
 * as github-actions[bot]), with the collaborators alice and bob and the member maria.
 */
export async function startActionHarness(): Promise<ActionHarness> {
  const fake = await startFakeGitHub({ appSlug: 'github-actions' });
  fake.addInstallation({ id: 1, account: 'acme', repos: [REPO] });
  fake.addUser('alice', { association: 'COLLABORATOR' });
  fake.addUser('bob', { association: 'COLLABORATOR' });
  fake.addUser('maria', { association: 'MEMBER' });
  fake.setWebhookTarget({ capture: true });
  return {
    fake,
    token: fake.installationToken(1),
    payloadOf(change) {
      const before = fake.deliveries.length;
      change();
      const delivery = fake.deliveries.at(-1);
      if (!delivery || fake.deliveries.length === before) throw new Error('no event was sent');
      // Workflow payloads are webhook payloads without the installation.
      const { installation: _installation, ...payload } = delivery.payload;
      return payload;
    },
    close: () => fake.close(),
  };
}

/** What a run printed and how it ended. */
export interface StepResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the Action as the runner does: a node process with GITHUB_* variables, the payload in
 * a file named by GITHUB_EVENT_PATH, and the inputs as INPUT_* variables.
 */
export async function runStep(
  harness: ActionHarness,
  options: {
    event: string;
    payload?: Record<string, unknown>;
    inputs?: Record<string, string>;
    env?: Record<string, string>;
    program?: string;
  },
): Promise<StepResult> {
  const dir = mkdtempSync(join(tmpdir(), 'claim-warden-action-'));
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(options.payload ?? {}));
  const inputs: Record<string, string> = {
    'github-token': harness.token,
    'stale-after': '6h',
    ...options.inputs,
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: options.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: harness.fake.apiUrl,
    LOG_LEVEL: 'fatal',
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
    ),
    ...options.env,
  };
  const program = options.program ?? ACTION_SOURCE;
  const [command, args] = program.endsWith('.ts')
    ? [TSX, [program]]
    : [process.execPath, [program]];
  try {
    return await new Promise<StepResult>((resolve, reject) => {
      const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
