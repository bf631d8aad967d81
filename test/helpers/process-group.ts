import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/**
 * Processes a test starts, each the leader of a process group of its own (`detached`), so
 * that stopping it stops what it started too: `tsx` runs the app in a second node process,
 * which a SIGTERM to `tsx` alone can leave running after the suite.
 */
const groups = new Set<number>();

/** Spawns `command` as the leader of a new process group, remembered until it is stopped. */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): ChildProcess {
  const child = spawn(command, [...args], { ...options, detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    groups.add(pid);
    child.once('close', () => {
      if (!alive(pid)) groups.delete(pid);
    });
  }
  return child;
}

/**
 * Stops `child`'s whole group: SIGTERM, then SIGKILL for whatever is still running after
 * `graceMs`; resolves once no process of the group is left.
 */
export async function stopGroup(child: ChildProcess, graceMs = 10_000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await pause(50);
  if (alive(pid)) signal(pid, 'SIGKILL');
  while (alive(pid)) await pause(20);
  groups.delete(pid);
}

/** The process groups started and not yet gone (an afterAll asserts this is empty). */
export function groupsLeft(): number[] {
  return [...groups].filter(alive);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pid, name);
  } catch {
    // ESRCH: the group is gone already.
  }
}

/** True while any process of group `pid` runs. */
function alive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
