import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** A bench/child.ts process and what it reported when ready. */
export interface BenchChild {
  readonly ready: Record<string, unknown>;
  readonly process: ChildProcess;
  /** Every line the child wrote on stdout so far (its pino log, JSON). */
  readonly output: readonly string[];
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts bench/child.ts in `mode` with `env` (the app's settings) and resolves its first JSON
 * line. Its stderr goes to ours, so a crash is visible.
 */
export async function spawnChild(
  mode: 'app' | 'noop' | 'memory',
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<BenchChild> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', TSX, CHILD, mode], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const output: string[] = [];
  lines.on('line', (line) => output.push(line));
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`bench child ${mode}: not ready in 60 s`)),
      60_000,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench child ${mode} exited with ${code} before it was ready`));
    });
    lines.on('line', (line) => {
      try {
        const fields = JSON.parse(line) as Record<string, unknown>;
        if (fields.ready === true) {
          clearTimeout(timer);
          resolve(fields);
        }
      } catch {
        // Not ours: a log line of the app.
      }
    });
  });
  return {
    ready,
    process: child,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
