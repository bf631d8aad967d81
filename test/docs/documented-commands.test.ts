/**
 * The commands the README and docs/ print work as printed: every `npm run <script>` names a
 * script package.json has, with its own flags after `--` (npm keeps a flag written before it,
 * such as `npm run bench --only guard`, for itself); every `npx <tool>` names a tool this
 * checkout installs (npx would otherwise fetch whatever package of that name the registry
 * holds); every file `npx tsx` is given exists; and each `--only <name>` names a benchmark.
 * (The sandbox's printed commands are run in a shell by test/sandbox.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Each command line a document shows: code spans and the lines of code blocks. */
function commands(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const block of text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)) {
    found.push(...(block[1] ?? '').split('\n').map((l) => l.replace(/#.*$/, '').trim()));
  }
  const prose = text.replace(/```[\s\S]*?```/g, '');
  for (const span of prose.matchAll(/`([^`\n]+)`/g)) found.push((span[1] ?? '').trim());
  return found.filter((c) => /^(npm run|npx) /.test(c));
}

const documented = DOCS.flatMap((file) => commands(file).map((command) => ({ file, command })));

describe('the commands the documentation prints', () => {
  it('are found (the check reads the documents)', () => {
    expect(documented.filter((d) => d.command.startsWith('npm run ')).length).toBeGreaterThan(5);
  });

  it.each(documented.filter((d) => d.command.startsWith('npm run ')))(
    '$file: $command names a script and passes its flags after --',
    ({ command }) => {
      const [, , script, ...rest] = command.split(/\s+/);
      expect(Object.keys(scripts)).toContain(script);
      const own = rest.indexOf('--');
      const beforeSeparator = own === -1 ? rest : rest.slice(0, own);
      expect(beforeSeparator.filter((word) => word.startsWith('-'))).toEqual([]);
    },
  );

  it.each(documented.filter((d) => d.command.startsWith('npx ')))(
    '$file: $command runs a tool of this checkout',
    ({ command }) => {
      const [, tool, file] = command.split(/\s+/);
      expect(existsSync(join(ROOT, 'node_modules/.bin', tool ?? ''))).toBe(true);
      if (tool === 'tsx') expect(existsSync(join(ROOT, file ?? ''))).toBe(true);
    },
  );

  it('names only benchmarks that exist with --only', () => {
    const bench = readFileSync(join(ROOT, 'bench/run.ts'), 'utf8');
    for (const { command } of documented) {
      const only = /--only (\S+)/.exec(command)?.[1];
      if (only !== undefined) expect(bench, command).toContain(`'${only}'`);
    }
  });
});
