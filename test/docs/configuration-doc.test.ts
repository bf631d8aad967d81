/**
 * docs/configuration.md is the settings' schema rendered (npm run docs:settings): a variable
 * added, renamed or given a new default without regenerating the page fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, HAND_WRITTEN, renderSettingsDoc } from '../../scripts/settings-doc.js';
import { readSettings } from '../../src/config/read-settings.js';
import { SettingsEnv } from '../../src/config/settings.js';
import { PRIVATE_KEY, WEBHOOK_SECRET } from '../helpers/app-harness.js';

const page = readFileSync(CONFIGURATION_DOC, 'utf8');
const rows = new Map(
  [...page.matchAll(/^\| `([A-Z_]+)` \| ([^|]*) \| ([^|]*) \|/gm)].map((m) => [
    m[1],
    { fallback: m[2]?.trim(), range: m[3]?.trim() },
  ]),
);

describe('docs/configuration.md', () => {
  it('is what npm run docs:settings renders from the schema', () => {
    const generated = page.slice(0, page.indexOf(HAND_WRITTEN));
    expect(generated, 'run npm run docs:settings and commit docs/configuration.md').toBe(
      `${renderSettingsDoc()}\n`,
    );
  });

  it('has a row for every variable start-up reads, and no other', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(SettingsEnv.shape).sort());
  });

  it.each([
    ['CLAIMS_STALE_AFTER', 'staleAfterMs', 6 * 3_600_000],
    ['CLAIMS_QUEUE_CONCURRENCY', 'queueConcurrency', 8],
    ['CLAIMS_API_RATE_PER_MINUTE', 'apiRatePerMinute', 300],
    ['CLAIMS_EVENTS_MAX_PENDING', 'eventsMaxPending', 10_000],
    ['CLAIMS_REDIS_PREFIX', 'redisPrefix', 'claims'],
    ['LOG_LEVEL', 'logLevel', 'info'],
  ] as const)('the default it gives %s is the one start-up uses', (name, key, value) => {
    const settings = readSettings({ APP_ID: '1', PRIVATE_KEY, WEBHOOK_SECRET });
    expect(settings[key]).toBe(value);
    const shown = rows.get(name)?.fallback?.replaceAll('`', '');
    expect(readSettings({ APP_ID: '1', PRIVATE_KEY, WEBHOOK_SECRET, [name]: shown })[key]).toBe(
      value,
    );
  });

  it.each([
    ['CLAIMS_SWEEP_INTERVAL', '1s', '24h', '0s', '25h'],
    ['CLAIMS_API_CONCURRENCY', '1', '1000', '0', '1001'],
  ])('the range it gives %s is the one start-up enforces', (name, lo, hi, below, above) => {
    expect(rows.get(name)?.range).toBe(`\`${lo}\` … \`${hi}\``);
    const base = { APP_ID: '1', PRIVATE_KEY, WEBHOOK_SECRET };
    expect(() => readSettings({ ...base, [name]: lo })).not.toThrow();
    expect(() => readSettings({ ...base, [name]: hi })).not.toThrow();
    expect(() => readSettings({ ...base, [name]: below })).toThrow(name);
    expect(() => readSettings({ ...base, [name]: above })).toThrow(name);
  });
});
