import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether the module at `moduleUrl` is the program node was started with (`argv1`), compared
 * as real paths: the module's URL percent-encodes a space that argv keeps, and a deploy
 * reached through a symlink (`current -> releases/x`) has argv[1] on the link and the module
 * on its target. A string comparison of the two said no in both cases, and `npm start`
 * exited 0 having done nothing.
 */
export function isEntry(moduleUrl: string, argv1: string | undefined): boolean {
  if (argv1 === undefined || !moduleUrl.startsWith('file:')) return false;
  return realPath(fileURLToPath(moduleUrl)) === realPath(resolve(argv1));
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
