import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

const PEM_KEY = /-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----/;

/**
 * Undoes the ways Probot lets `PRIVATE_KEY` be written (@probot/get-private-key): base64 of the
 * PEM, `\n` escapes, or the PEM squashed onto one line.
 */
function normalisePrivateKey(text: string): string {
  let key = text.trim();
  if (!key.includes('-----BEGIN') && Buffer.from(key, 'base64').toString('base64') === key) {
    key = Buffer.from(key, 'base64').toString('utf8').trim();
  }
  key = key.replace(/\\n/g, '\n');
  const oneLine = /^(-----BEGIN [A-Z ]+-----) (.+) (-----END [A-Z ]+-----)$/.exec(key);
  if (oneLine && !key.includes('\n')) {
    key = `${oneLine[1]}\n${oneLine[2]!.replace(/\s+/g, '\n')}\n${oneLine[3]}`;
  }
  return key;
}

/**
 * Checks that a key is a PEM RSA private key that Node can load, so a truncated paste fails
 * here, naming the variable, instead of at the first token request. Returns a problem or null;
 * never the key or crypto's text about it.
 */
function privateKeyProblem(key: string): string | null {
  const how =
    'the GitHub App private key in PEM form (-----BEGIN RSA PRIVATE KEY----- ... or -----BEGIN PRIVATE KEY----- ...)';
  if (!PEM_KEY.test(key)) return `must be ${how}`;
  try {
    const parsed = createPrivateKey(key);
    if (parsed.asymmetricKeyType !== 'rsa') return `must be an RSA key: ${how}`;
  } catch {
    return `looks like a PEM key but cannot be loaded (truncated or altered?): ${how}`;
  }
  return null;
}

/** `PRIVATE_KEY`: the PEM itself, in any of the forms Probot accepts. */
export const privateKeySchema = z
  .string()
  .transform(normalisePrivateKey)
  .superRefine((key, ctx) => {
    const problem = privateKeyProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** `PRIVATE_KEY_PATH`: the file is read here, once, so the app never starts with a key it cannot read. */
// The file is read here, once, so the app never starts with a key it cannot read.
export const privateKeyPathSchema = z.string().transform((path, ctx) => {
  let key: string;
  try {
    key = readFileSync(resolve(path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    ctx.addIssue({ code: 'custom', message: `must be a readable file holding the key (${code})` });
    return z.NEVER;
  }
  const problem = privateKeyProblem(key.trim());
  if (problem) {
    ctx.addIssue({
      code: 'custom',
      message: `the file ${problem.replace(/^must be/, 'must hold')}`,
    });
    return z.NEVER;
  }
  return key;
});
