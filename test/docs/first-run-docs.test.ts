/**
 * The docs a newcomer reads agree with the code: the documented ranges
 * are the ones start-up enforces, REDIS_URL is said to be unread, the pull-request check is
 * described as built, Praetor is introduced, and the Action's schedule caveat is stated.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/read-settings.js';
import { PRIVATE_KEY, WEBHOOK_SECRET } from '../helpers/app-harness.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const protocol = readFileSync(join(ROOT, 'docs/protocol.md'), 'utf8');
const agents = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
const flat = (text: string) => text.replace(/\s+/g, ' ');

const BASE = { APP_ID: '1', PRIVATE_KEY, WEBHOOK_SECRET };
const accepts = (name: string, value: string) =>
  expect(() => readSettings({ ...BASE, [name]: value }), `${name}=${value}`).not.toThrow();
const refuses = (name: string, value: string) =>
  expect(() => readSettings({ ...BASE, [name]: value }), `${name}=${value}`).toThrow(name);

describe('the docs of a first run', () => {
  it.each([
    ['CLAIMS_RESYNC_INTERVAL', '6h', '1m', '720h', '59s', '721h'],
    ['CLAIMS_QUEUE_CONCURRENCY', '8', '1', '256', '0', '257'],
  ])(
    'protocol.md gives %s its range, and start-up enforces that range',
    (name, dflt, lo, hi, below, above) => {
      expect(flat(protocol)).toContain(`\`${name}\` (default \`${dflt}\`, \`${lo}\` to \`${hi}\`)`);
      accepts(name, lo);
      accepts(name, hi);
      refuses(name, below);
      refuses(name, above);
    },
  );

  it('protocol.md §7 says REDIS_URL is not read, as the README and the code do', () => {
    const section7 = protocol.slice(protocol.indexOf('## 7.'), protocol.indexOf('## 8.'));
    expect(flat(section7)).toContain('`REDIS_URL` is not read');
    expect(flat(section7)).not.toMatch(/Probot, which reads it/);
  });

  it('agents.md describes the pull-request check as built', () => {
    expect(flat(agents)).not.toMatch(/comes later/);
    expect(flat(agents)).toContain('`claim-warden/paths` check run');
  });

  it('protocol.md introduces Praetor, whose name heads every claim comment', () => {
    expect(flat(protocol)).toMatch(/\*\*Praetor\*\* is the claim protocol/);
  });

  it("protocol.md's Action mode says GitHub disables idle repositories' schedules", () => {
    const section15 = flat(protocol.slice(protocol.indexOf('## 15.')));
    expect(section15).toMatch(/disables a public repository's scheduled workflows after 60 days/);
  });
});
