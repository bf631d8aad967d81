import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium package; `.ci/run` installs it when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** A real headless Chromium with a fresh profile, closed (and its profile removed) by `close`. */
export interface Chromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Options of a launch: a colour scheme, a viewport, JavaScript off. */
export interface ChromiumOptions {
  readonly colorScheme?: 'light' | 'dark';
  readonly viewport?: { width: number; height: number };
  readonly javaScriptEnabled?: boolean;
}

/** A small avatar for every GitHub avatar URL: the test machine has no internet. */
const AVATAR = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" rx="20" fill="#8250df"/></svg>`;

/**
 * Launches Chromium headless, offline-friendly (no background networking, updates or sync),
 * with a profile of its own in a temporary directory.
 */
export async function launchChromium(options: ChromiumOptions = {}): Promise<Chromium> {
  const profile = await mkdtemp(join(tmpdir(), 'claims-board-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  await context.route(/^https:\/\/avatars\.githubusercontent\.com\//, (route) =>
    route.fulfill({ status: 200, contentType: 'image/svg+xml', body: AVATAR }),
  );
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
