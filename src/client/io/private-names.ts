import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setupError } from '../core/client-error.js';

/** The file of names that must never reach public text (docs/agents.md, "Identity tags and the text guard"). */
const PRIVATE_NAMES_FILE = 'private-names.txt';

/**
 * The non-empty lines of `<dir>/private-names.txt`, trimmed; none when the file does not
 * exist. A file that exists but cannot be read is a setup error: the guard fails closed
 * rather than writing text it could not check.
 */
export async function loadPrivateNames(dir: string): Promise<string[]> {
  const path = join(dir, PRIVATE_NAMES_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw setupError(
      `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}); refusing to write public text unchecked`,
      { path },
    );
  }
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
