import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The environment variables that place the client's config directory. */
export type ConfigEnv = Readonly<Record<string, string | undefined>>;

/**
 * The directory holding the identity key (`claim-tag.key`) and `private-names.txt`:
 * `CLAIM_WARDEN_CONFIG_DIR` when set (tests and unusual setups name the directory itself);
 * else `claim-warden` under the user's config directory, as Go's os.UserConfigDir finds it
 * (Praetor stores Praetor's key there): `$XDG_CONFIG_HOME`, else `%AppData%` on Windows,
 * `~/Library/Application Support` on macOS and `~/.config` elsewhere. A relative
 * XDG_CONFIG_HOME is ignored, as the XDG base directory spec asks.
 */
export function configDir(env: ConfigEnv, platform: NodeJS.Platform = process.platform): string {
  const explicit = env.CLAIM_WARDEN_CONFIG_DIR;
  if (explicit !== undefined && explicit !== '') return explicit;
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'claim-warden');
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'claim-warden');
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'claim-warden');
  return join(home, '.config', 'claim-warden');
}
