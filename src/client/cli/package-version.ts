import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in claim-warden's package.json, found by walking up from this file: the source
 * runs from `src/client/`, the build from `dist/src/client/`, so the depth differs.
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'claim-warden' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json at this level: keep walking up.
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}
