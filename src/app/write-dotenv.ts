import { closeSync, fchmodSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Probot's setup `updateEnv` (probot/lib/helpers/update-env.js), writing `.env` readable by
 * its owner only: it holds the app's private key, webhook secret and OAuth client secret.
 * The values are merged into the file's own and written as Probot writes them; the mode is set
 * to 0600 before a byte is written, also when the file existed with a wider one (an
 * open(2) mode applies only to a file it creates). `process.env` gets the values, as Probot's.
 */
export function writeDotenv(
  values: Record<string, string>,
  path: string = join(process.cwd(), '.env'),
): Record<string, string> {
  const merged: Record<string, string> = { ...readDotenv(path), ...values };
  const contents = Object.entries(merged)
    .map(([key, value]) => `${key}=${value.replace(/\n/g, '\\n')}`)
    .join('\n');
  const fd = openSync(path, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, contents);
  } finally {
    closeSync(fd);
  }
  Object.assign(process.env, merged);
  return merged;
}

function readDotenv(path: string): Record<string, string> {
  try {
    return parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}
