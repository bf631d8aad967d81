/**
 * Writes docs/configuration.md from the settings' schema (src/config/settings.ts), so each
 * variable's name, default, range and description is written once, there.
 *
 * Usage: `npm run docs:settings` (writes the file); test/docs/configuration-doc.test.ts fails
 * when the committed file is not what this renders.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { settingDocs } from '../src/config/setting-doc.js';
import { SettingsEnv } from '../src/config/settings.js';

/** Where the rendered page is committed. */
export const CONFIGURATION_DOC = resolve(import.meta.dirname, '../docs/configuration.md');

const HEAD = `# Configuration

<!-- Generated from src/config/settings.ts by \`npm run docs:settings\`: edit the schema, not this file. -->

The operator's settings are environment variables, read once at start-up. A bad one stops the
process with a message naming the variable and what it should hold; every bad one is listed at
once, and secrets are never echoed. Durations are written as whole numbers with the units
\`d\`, \`h\`, \`m\` or \`s\`, largest first (\`90s\`, \`10m\`, \`6h\`, \`1h30m\`). An empty value
(\`FOO=\`) counts as unset.

The GitHub App's credentials are required: \`APP_ID\`, \`PRIVATE_KEY\` or \`PRIVATE_KEY_PATH\`,
and \`WEBHOOK_SECRET\`. Redis is named one way only: \`CLAIMS_REDIS_URL\`,
\`CLAIMS_REDIS_SENTINELS\` or \`CLAIMS_REDIS_CLUSTER\` ([replicas.md](replicas.md)); none runs embedded.

| variable | default | accepts | meaning |
| --- | --- | --- | --- |
`;

const TAIL = `
A secret is never quoted in an error nor logged; the start-up line shows URLs as their origin.
At \`LOG_LEVEL=info\` each request is one line (\`method\`, \`path\` without its query, \`status\`,
\`ms\`, a webhook's delivery id and event); \`/health\` probes and \`/metrics\` scrapes are at
\`debug\`; no header, cookie or query string is logged at any level. Who may call each route
and the limits of each door: [security.md](security.md). \`REDIS_URL\` is not read: Probot's
Redis-clustered throttling misbehaves on Redis 7; the app paces each installation's writes
itself, on Redis for all replicas at once ([replicas.md](replicas.md#write-pacing)).

A repository's own settings are its \`.github/claims.yml\`: below.
`;

/** Where the generated part ends; what follows it is written by hand and kept as it is. */
export const HAND_WRITTEN = '<!-- end of the generated part: the rest is written by hand -->';

/** The generated part of docs/configuration.md, as the schema says it. */
export function renderSettingsDoc(): string {
  const rows = Object.entries(SettingsEnv.shape).map(([name, schema]) => {
    const doc = settingDocs.get(schema);
    if (doc === undefined) throw new Error(`${name} has no description in src/config/settings.ts`);
    // The descriptions cite docs/… as the code does; this page sits beside them.
    const cited = doc.about.replaceAll('docs/', '');
    const about = doc.secret ? `${cited} (secret)` : cited;
    const fallback = doc.default === undefined ? '—' : `\`${doc.default}\``;
    return `| \`${name}\` | ${fallback} | ${doc.range ?? ''} | ${about} |`;
  });
  return `${HEAD}${rows.join('\n')}\n${TAIL}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const page = existsSync(CONFIGURATION_DOC) ? readFileSync(CONFIGURATION_DOC, 'utf8') : '';
  const at = page.indexOf(HAND_WRITTEN);
  const hand = at === -1 ? `${HAND_WRITTEN}\n` : page.slice(at);
  writeFileSync(CONFIGURATION_DOC, `${renderSettingsDoc()}\n${hand}`);
  console.log(`wrote ${CONFIGURATION_DOC}`);
}
