import { ownPackage } from './own-package.js';

/** The version in claim-warden's package.json (the app's in a checkout, the client's installed). */
export function packageVersion(): string {
  return ownPackage()?.version ?? '0.0.0';
}
