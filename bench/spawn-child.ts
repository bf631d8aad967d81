import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** The CPU a pinned benchmark gives its children (a taskset list). */
export interface CpuPinning {
  readonly child: string;
  /** Gives this process the CPUs it had before. */
  release(): void;
}

/** The CPUs a taskset list names: `0-2,5` → 0, 1, 2, 5. */
function cpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number) as [number, number?];
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/**
 * Pins this process to all its CPUs but the last and returns the last for the children, so
 * that the server measured never shares a core with the load sent to it (unpinned, on a 2-core
 * machine, one configuration's CPU a delivery ranged 150–420 µs between processes). Undefined,
 * nothing pinned, on one CPU or without `taskset` (util-linux).
 */
export function pinBench(): CpuPinning | undefined {
  const taskset = (...args: string[]) =>
    execFileSync('taskset', [...args, String(process.pid)], { encoding: 'utf8' });
  try {
    // "pid 4261's current affinity list: 0,1"
    const before = taskset('-p', '-c').trim().split(': ')[1] ?? '';
    const cpus = cpuList(before);
    if (cpus.length < 2 || cpus.some((cpu) => !Number.isInteger(cpu))) return undefined;
    const bench = cpus.slice(0, -1).join(',');
    taskset('-a', '-p', '-c', bench);
    return {
      child: String(cpus.at(-1)),
      release: () => void taskset('-a', '-p', '-c', before),
    };
  } catch {
    return undefined;
  }
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
