import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * docs/protocol.md §8 "Who writes what" and §15: every GitHub write of the app, the API, the
 * Action, the guard and the client is an action of a plan run by the one executor in
 * src/github/, so observe mode and `enabled: false` hold for all of them in one place. This
 * reads the source as text and fails on any GitHub write route outside src/github/.
 */

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const src = join(root, 'src');

/**
 * Files outside src/github/ that send a mutating request which is not a write to GitHub's
 * repositories, each with why it is not the executor's.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/events/send-event.ts':
    "the outgoing events' POST to the operator's own receiver (docs/protocol.md §13), not GitHub",
  'src/client/io/claims-api-client.ts':
    "the client's calls to the claims API (docs/protocol.md §8), which writes through the executor",
  'src/board/exchange-code.ts':
    "the board's OAuth sign-in (docs/protocol.md §14): exchanging a code for a token writes nothing on a repository",
  'src/board/revoke-token.ts':
    "the board's sign-out (docs/protocol.md §14): revoking the user's token writes nothing on a repository",
  'src/recovery/recover-deliveries.ts':
    'asking GitHub to redeliver a missed webhook to the app itself: no repository is written',
};

/** `scope.method` → HTTP verb, read from octokit's own endpoint table. */
function octokitVerbs(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@octokit/plugin-rest-endpoint-methods');
  const text = readFileSync(join(dirname(entry), 'generated', 'endpoints.js'), 'utf8');
  const verbs = new Map<string, string>();
  let scope = '';
  // `  scope: {` opens a scope; `    name: ["VERB /path"` (the route may start on the next line).
  for (const match of text.matchAll(/^ {2}(\w+): \{|^ {4}(\w+): \[\s*"(\w+) /gm)) {
    if (match[1]) scope = match[1];
    else verbs.set(`${scope}.${match[2]}`, match[3]!);
  }
  return verbs;
}

const MUTATING = /^(POST|PATCH|PUT|DELETE)$/;

/** The GitHub writes a file's text makes, as `line: what`. */
function githubWrites(text: string, verbs: Map<string, string>): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  // A file that sends with fetch (called directly, injected, or as globalThis.fetch).
  const sendsFetch = /\bfetch\b/.test(text);
  lines.forEach((line, i) => {
    const at = `${i + 1}`;
    for (const m of line.matchAll(/\brest\.(\w+)\.(\w+)\b/g)) {
      const verb = verbs.get(`${m[1]}.${m[2]}`);
      if (verb === undefined || MUTATING.test(verb)) found.push(`${at}: rest.${m[1]}.${m[2]}`);
    }
    for (const m of line.matchAll(/\.request\(\s*['"`](POST|PATCH|PUT|DELETE)\b/g)) {
      found.push(`${at}: request('${m[1]} …')`);
    }
    if (sendsFetch) {
      for (const m of line.matchAll(/['"`](POST|PATCH|PUT|DELETE)['"`]/g)) {
        found.push(`${at}: fetch with method ${m[1]}`);
      }
    }
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('one writer: every GitHub write goes through src/github/', () => {
  const verbs = octokitVerbs();

  it('knows a write route from a read route', () => {
    expect(verbs.get('issues.updateComment')).toBe('PATCH');
    expect(verbs.get('checks.create')).toBe('POST');
    expect(verbs.get('checks.listForRef')).toBe('GET');
    expect(verbs.get('apps.redeliverWebhookDelivery')).toBe('POST');
    const sample = [
      'await octokit.rest.issues.updateComment({ body });',
      'await octokit.rest.issues.listComments({});',
      "await octokit.request('DELETE /repos/{owner}/{repo}/labels/{name}');",
      "await fetch(url, { method: 'PATCH' });",
    ].join('\n');
    expect(githubWrites(sample, verbs)).toEqual([
      '1: rest.issues.updateComment',
      "3: request('DELETE …')",
      '4: fetch with method PATCH',
    ]);
  });

  it('finds no GitHub write in src/ outside src/github/ but the allowed ones', () => {
    const writes: string[] = [];
    for (const file of sourceFiles(src)) {
      const name = relative(root, file);
      if (name.startsWith('src/github/') || name in ALLOWED) continue;
      for (const write of githubWrites(readFileSync(file, 'utf8'), verbs)) {
        writes.push(`${name}:${write}`);
      }
    }
    expect(writes).toEqual([]);
  });

  it('allows only files that still send a mutating request', () => {
    for (const name of Object.keys(ALLOWED)) {
      const text = readFileSync(join(root, name), 'utf8');
      expect(githubWrites(text, verbs), name).not.toEqual([]);
    }
  });
});
