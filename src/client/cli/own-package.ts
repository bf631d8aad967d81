import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The app's package (a checkout runs the client from `src/client/cli/` in it) and the client's
// own (`packages/client/`, whose bundle runs from `dist/` in an installed copy).
const OWN_NAMES = new Set(['claim-warden', 'claim-warden-client']);

/** The folder and version of the claim-warden package this file runs from. */
interface OwnPackage {
  readonly dir: string;
  readonly version: string | undefined;
}

/**
 * Found by walking up from this file to the nearest package.json of ours: the depth differs
 * between the source and the bundle. Undefined when there is none (a copied file).
 */
export function ownPackage(): OwnPackage | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 7; depth += 1) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (typeof pkg.name === 'string' && OWN_NAMES.has(pkg.name)) {
        return { dir, version: typeof pkg.version === 'string' ? pkg.version : undefined };
      }
    } catch {
      // No package.json at this level: keep walking up.
    }
    dir = dirname(dir);
  }
  return undefined;
}
