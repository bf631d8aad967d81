/**
 * The first start's setup page as a newcomer meets it: the app it
 * registers can sign in to the board, the import page names the webhook URL to set, and
 * offline the log says what will help. In-process (Probot's setup code reads app.yml from
 * the working folder, the repository's own here); smee.io is replaced by a client that
 * cannot reach it, as on a machine without network.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type SetupServer, startSetup } from '../../src/app/setup.js';
import { sendWebhook } from '../fake-github/webhooks.js';
import {
  freePort,
  logSink,
  startHarness,
  WEBHOOK_SECRET,
  waitFor,
} from '../helpers/app-harness.js';

/** A smee.io client on a machine without network. */
const OfflineSmee = {
  createChannel: async (): Promise<string> => {
    throw new TypeError('fetch failed');
  },
};

const servers: SetupServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function setup(env: Record<string, string> = {}) {
  const port = await freePort();
  const lines: string[] = [];
  const server = await startSetup(
    { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    { logDestination: logSink(lines), SmeeClient: OfflineSmee },
  );
  servers.push(server);
  return { port, lines, url: (path: string) => `http://127.0.0.1:${port}${path}` };
}

function manifestOf(page: string): {
  callback_urls?: string[];
  hook_attributes?: { url?: string };
} {
  const value = /name="manifest" id="manifest" value='([^']*)'/.exec(page)?.[1];
  if (value === undefined) throw new Error('the page offers no manifest');
  return JSON.parse(value);
}

describe('the setup page on a first start', () => {
  it("registers the board's sign-in callback at the setup page's own address", async () => {
    const { port, url } = await setup();

    const page = await (await fetch(url('/probot'))).text();

    expect(manifestOf(page).callback_urls).toEqual([`http://127.0.0.1:${port}/claims/callback`]);
    expect(page).toContain(`http://127.0.0.1:${port}/claims/callback`);
    expect(page).toContain('CLAIMS_PUBLIC_URL');
  });

  it('registers the callback at CLAIMS_PUBLIC_URL when it is set', async () => {
    const { url } = await setup({ CLAIMS_PUBLIC_URL: 'https://claims.example.org' });

    const page = await (await fetch(url('/probot'))).text();

    expect(manifestOf(page).callback_urls).toEqual(['https://claims.example.org/claims/callback']);
  });

  it('registers the webhook URL the app serves, which answers a signed delivery', async () => {
    const { port, url } = await setup();
    const page = await (await fetch(url('/probot'))).text();
    const hook = manifestOf(page).hook_attributes?.url ?? '';
    expect(hook).toBe(`http://127.0.0.1:${port}/api/github/webhooks`);

    // The app, once registered, answers a delivery at exactly that path.
    const app = await startHarness();
    try {
      const target = `${app.appUrl}${new URL(hook).pathname}`;
      const answer = await sendWebhook(target, WEBHOOK_SECRET, {
        event: 'ping',
        payload: { zen: 'Keep it logically awesome.', hook_id: 1 },
      });
      expect(answer.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('registers the webhook URL at CLAIMS_PUBLIC_URL, or the proxy channel when one is set', async () => {
    const direct = await setup({ CLAIMS_PUBLIC_URL: 'https://claims.example.org/' });
    const page = await (await fetch(direct.url('/probot'))).text();
    expect(manifestOf(page).hook_attributes?.url).toBe(
      'https://claims.example.org/api/github/webhooks',
    );
    const proxied = await setup({ WEBHOOK_PROXY_URL: 'https://smee.io/AbCd1234' });
    const proxiedPage = await (await fetch(proxied.url('/probot'))).text();
    expect(manifestOf(proxiedPage).hook_attributes?.url).toBe('https://smee.io/AbCd1234');
  });

  it('the import page names the webhook URL to set', async () => {
    const { port, url } = await setup();

    const page = await (await fetch(url('/probot/import'))).text();

    const step = /Replace your app's Webhook URL with([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '';
    expect(step).toContain(`http://127.0.0.1:${port}/api/github/webhooks`);
    expect(step).toContain('WEBHOOK_PROXY_URL');
    expect(step).not.toMatch(/<b>\s*(undefined)?\s*<\/b>/);
  });

  it('offline, the log says what will help instead of "try restarting your server"', async () => {
    const { lines } = await setup();
    await waitFor(() => lines.some((l) => l.includes('smee.io')), 'the smee.io line');

    const text = lines.join('\n');
    expect(text).not.toContain('try restarting your server');
    const line = JSON.parse(lines.find((l) => l.includes('smee.io'))!);
    expect(line.msg).toMatch(/WEBHOOK_PROXY_URL/);
    expect(line.msg).toMatch(/https:\/\/smee\.io\/new/);
    expect(line.msg).toMatch(/by hand/);
  });

  it('every setup log line is one JSON object with unique keys and a message', async () => {
    const { lines } = await setup();

    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      const keys = [...line.matchAll(/"([^"\\]+)":/g)].map((m) => m[1]);
      // Top-level keys only matter; these lines carry no nested objects with a repeated key.
      expect(new Set(keys).size, line).toBe(keys.length);
      expect(JSON.parse(line).msg, line).not.toBe('');
    }
  });
});
