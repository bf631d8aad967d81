import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** The CPUs a pinned benchmark gives its children and keeps for itself (taskset lists). */
export interface CpuPinning {
  readonly child: string;
  readonly bench: string;
  /** Gives this process every CPU again. */
  release(): void;
}

/**
 * Pins this process to all CPUs but the last and returns the last for the children, so that
 * the server measured never shares a core with the load sent to it (on a 2-core machine their
 * turns on one core made one run's CPU a delivery differ from the next by half). Undefined,
 * nothing pinned, on one CPU or without `taskset` (util-linux).
 */
export function pinBench(): CpuPinning | undefined {
  const cpus = availableParallelism();
  if (cpus < 2) return undefined;
  const taskset = (list: string) =>
    execFileSync('taskset', ['-a', '-p', '-c', list, String(process.pid)], { stdio: 'ignore' });
  const bench = cpus === 2 ? '0' : `0-${cpus - 2}`;
  try {
    taskset(bench);
  } catch {
    return undefined;
  }
  return { child: String(cpus - 1), bench, release: () => taskset(`0-${cpus - 1}`) };
}

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
  pin?: CpuPinning,
): Promise<BenchChild> {
  const argv = [process.execPath, ...nodeArgs, '--import', TSX, CHILD, mode];
  const [command, ...args] = pin ? ['taskset', '-c', pin.child, ...argv] : argv;
  const child = spawn(command!, args, {
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
