/**
 * The image, read from the Dockerfile (no Docker engine is needed): its runtime stage installs
 * the production dependencies only and runs the compiled app, so the TypeScript tooling (tsx,
 * esbuild, typescript) is not shipped; and every package the app's code imports at run time is
 * a production dependency, so that install is enough to run it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The Dockerfile's stages by name, each its instruction lines (continuations joined). */
function stages(): Map<string, string[]> {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const found = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from?.[1]) {
      current = [];
      found.set(from[1], current);
    } else current?.push(line);
  }
  return found;
}

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** The packages a file imports for its run time (type-only imports are erased by tsc). */
function runtimePackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const names: string[] = [];
  for (const m of text.matchAll(
    /^\s*(?:import|export)\s+(?!type\s)[^'";]*?from\s+'([^'.][^']*)'/gm,
  )) {
    const spec = m[1] ?? '';
    if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
    const parts = spec.split('/');
    names.push(spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? spec));
  }
  for (const m of text.matchAll(/\bimport\(\s*'([^'.][^']*)'\s*\)/g)) names.push(m[1] ?? '');
  return names;
}

describe('the image', () => {
  const runtime = stages().get('runtime') ?? [];

  it('has a runtime stage that installs production dependencies only and runs the compiled app', () => {
    expect(runtime.length).toBeGreaterThan(0);
    const installs = runtime.filter((l) => /\bnpm (ci|install|i)\b/.test(l));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/--omit=dev/);
    const cmd = runtime.find((l) => l.startsWith('CMD')) ?? '';
    expect(cmd).toMatch(/"node",\s*"dist\/src\/app\/main\.js"/);
    expect(runtime.some((l) => /^USER\s+(?!root)\S+/.test(l))).toBe(true);
    expect(runtime.some((l) => /HOST=0\.0\.0\.0/.test(l))).toBe(true);
  });

  it('gives the health check a start period, so a slow first start is not counted as a failure', () => {
    const check = runtime.find((l) => l.startsWith('HEALTHCHECK')) ?? '';
    expect(check).toMatch(/--start-period=\d+s/);
    expect(check).toMatch(/\/health/);
  });

  it('ships no TypeScript tooling: tsx, esbuild and typescript are development dependencies', () => {
    for (const tool of ['tsx', 'esbuild', 'typescript']) {
      expect(pkg.dependencies, tool).not.toHaveProperty(tool);
    }
  });

  it('needs nothing at run time that the production install leaves out', () => {
    const missing = new Set<string>();
    for (const file of sources(join(ROOT, 'src'))) {
      for (const name of runtimePackages(file)) {
        if (!(name in pkg.dependencies)) missing.add(`${name} (${file.slice(ROOT.length + 1)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
