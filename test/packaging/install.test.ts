/**
 * A fresh clone's `npm ci` is quiet and complete: every dependency with an install script is
 * decided in package.json's `allowScripts` (npm 11 blocks unreviewed ones and warns at each
 * install), none of them is allowed to run (the app needs none: esbuild's binary comes from its
 * platform package, msgpackr falls back to JavaScript), and the licence package.json names is
 * in the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

describe('installing', () => {
  it('decides every install script the lockfile holds, and runs none', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
    expect(Object.values(pkg.allowScripts ?? {}).every((allowed) => allowed === false)).toBe(true);
  });

  it('ships the licence package.json names', () => {
    expect(pkg.license).toBe('MIT');
    expect(existsSync(join(ROOT, 'LICENSE'))).toBe(true);
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });
});
