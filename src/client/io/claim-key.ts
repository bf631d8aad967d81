import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setupError } from '../core/client-error.js';

/** The key file's name inside the config directory (docs/agents.md, "Identity tags and the text guard"). */
export const CLAIM_KEY_FILE = 'claim-tag.key';

/** The key is 32 random bytes (docs/agents.md, "Identity tags and the text guard"). */
const CLAIM_KEY_BYTES = 32;

/**
 * The HMAC key for identity tags, from `<dir>/claim-tag.key`; created on first use with 32
 * random bytes and mode 0600. Seed rules: the key is never printed, logged or returned in an
 * error (messages name the file, never its content), and when it cannot be read or created
 * the operation fails (a setup error): there is no fallback to plain values.
 *
 * Creation is race-free: the key is written to a private temporary file and hard-linked into
 * place, which fails when another process got there first, so two sessions starting at once
 * agree on one key and nobody ever reads a half-written file.
 */
export async function loadClaimKey(dir: string): Promise<Uint8Array> {
  const path = join(dir, CLAIM_KEY_FILE);
  const existing = await readKey(path);
  if (existing) return existing;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = join(dir, `.${CLAIM_KEY_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
    await writeFile(temp, randomBytes(CLAIM_KEY_BYTES), { mode: 0o600, flag: 'wx' });
    // The umask can only remove bits, but an explicit chmod states the rule where it is kept.
    await chmod(temp, 0o600);
    try {
      await link(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  } catch (error) {
    throw setupError(
      `cannot create the identity key ${path} (${codeOf(error)}); claims need it and never fall back to plain identities`,
      { path },
    );
  }
  const created = await readKey(path);
  if (!created)
    throw setupError(`the identity key ${path} vanished while it was created`, { path });
  return created;
}

/** The key at `path`, or null when there is none yet. Throws a setup error for a bad file. */
async function readKey(path: string): Promise<Uint8Array | null> {
  let key: Buffer;
  try {
    key = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw setupError(`cannot read the identity key ${path} (${codeOf(error)})`, { path });
  }
  if (key.length !== CLAIM_KEY_BYTES) {
    throw setupError(
      `the identity key ${path} is not ${CLAIM_KEY_BYTES} bytes long; move it away to let a new one be made (this changes every tag this machine writes)`,
      { path },
    );
  }
  if (process.platform !== 'win32') {
    // Like ssh with a private key: a key others can read is refused, not silently used.
    const { mode } = await stat(path);
    if ((mode & 0o077) !== 0) {
      throw setupError(
        `the identity key ${path} can be read by other users (mode ${(mode & 0o777).toString(8)}); run chmod 600 on it`,
        { path },
      );
    }
  }
  return new Uint8Array(key);
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'unknown error';
}
