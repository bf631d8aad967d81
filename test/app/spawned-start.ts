import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnGroup, stopGroup } from '../helpers/process-group.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const MAIN = join(ROOT, 'src/app/main.ts');

/** `npm start` run as a child process in a directory of its own. */
export interface Spawned {
  readonly child: ChildProcess;
  readonly dir: string;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited(): Promise<number | null>;
  /** Stops the process and everything it started, waits for them, and removes its directory. */
  close(): Promise<void>;
}

/** A fresh checkout: app.yml and package.json, no .env. */
export function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'claim-warden-start-'));
  copyFileSync(join(ROOT, 'app.yml'), join(dir, 'app.yml'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  return dir;
}

/** Spawns the real entry (src/app/main.ts) in `dir` with only `env` (and PATH, HOME). */
export function spawnStart(env: Record<string, string>, dir = checkout()): Spawned {
  const child = spawnGroup(TSX, [MAIN], {
    cwd: dir,
    // NO_SMEE_SETUP: Probot would otherwise ask smee.io for a channel; there is no network.
    env: { PATH: process.env.PATH ?? '', HOME: dir, NO_SMEE_SETUP: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    child,
    dir,
    output: () => output,
    exited: () => exit,
    async close() {
      // The whole group: tsx's own node process and the app it runs.
      await stopGroup(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
