import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DestinationStream, Logger } from 'pino';
import { Probot, Server } from 'probot';
import { checkListenHost } from '../config/check-listen-host.js';
import type { Settings } from '../config/settings.js';
import { createLog } from './log.js';
import { requestLog } from './request-log.js';
import type { NodeMiddleware } from './webhook-door.js';
import { withoutProbotHttpLog } from './without-probot-http-log.js';
import { writeDotenv } from './write-dotenv.js';

/** The setup server started by startSetup. */
export interface SetupServer {
  /** The port it listens on. */
  readonly port: number;
  stop(): Promise<void>;
}

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** Probot's setup app (probot/lib/apps/setup.js), which its package does not export. */
interface ProbotSetupApp {
  setupAppFactory(options: {
    host: string;
    port: number;
    log: Logger;
    updateEnv?: (values: Record<string, string>) => Record<string, string>;
    SmeeClient?: SmeeClientClass;
  }): () => Promise<RequestHandler>;
}

/** Probot's manifest builder (probot/lib/manifest-creation.js), used by its setup app. */
interface ProbotManifestCreation {
  ManifestCreation: {
    prototype: { getManifest(options: { pkg: unknown; baseUrl: string }): string };
  };
}

/** The part of smee-client's class that Probot's setup calls for a webhook channel. */
interface SmeeClientClass {
  createChannel(): Promise<string>;
}

/** What tests may replace in startSetup. */
interface SetupOptions {
  /** Where log lines go (default stdout). */
  readonly logDestination?: DestinationStream & NodeJS.WritableStream;
  /** Replaces smee-client (tests: a machine without network). */
  readonly SmeeClient?: SmeeClientClass;
}

/** What an operator sets by hand when GitHub's manifest flow cannot complete from here. */
/** Where the running app serves webhooks (Probot's Server default, which main.ts keeps). */
const WEBHOOK_PATH = '/api/github/webhooks';

const BY_HAND = ['APP_ID', 'PRIVATE_KEY (or PRIVATE_KEY_PATH)', 'WEBHOOK_SECRET'];

/**
 * docs/protocol.md §15, the first start: `npm start` with no `APP_ID` outside production
 * serves Probot's own setup page and manifest flow, as any Probot app does. It registers the
 * app from `app.yml` (its permissions and events; GitHub Enterprise through `GHE_HOST`,
 * which Probot reads), writes `.env` and asks for a restart. Where that flow cannot
 * complete (no network, no public URL or `WEBHOOK_PROXY_URL` for webhooks), the page and
 * the log say what to set by hand. Probot's setup code reads `process.env`. `.env` is
 * written 0600 (it holds the private key), and requests are logged without their query (the
 * manifest flow's `code`).
 */
export function needsSetup(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env.APP_ID ?? '').trim() === '' && env.NODE_ENV !== 'production';
}

/** Starts Probot's setup server on `PORT` / `HOST` (see needsSetup). */
export async function startSetup(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: SetupOptions = {},
): Promise<SetupServer> {
  // The app's own root logger, so setup mode's lines are shaped as the app's: one `name` a
  // line (Probot's server names its child `http`), LOG_FORMAT honoured.
  const log = await createLog(
    {
      logLevel: (env.LOG_LEVEL || 'info') as Settings['logLevel'],
      logFormat: env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json',
    },
    options.logDestination,
  );
  const port = Number(env.PORT) || 3000;
  const host = env.HOST || 'localhost';
  // A typo in HOST stops setup naming it, as it stops the app (docs/protocol.md §6).
  await checkListenHost({ host });
  const proxy = env.WEBHOOK_PROXY_URL || undefined;
  // No webhookProxy here: setup mode takes no webhook. The proxy's URL goes into the
  // manifest as the app's webhook URL (Probot reads WEBHOOK_PROXY_URL for it).
  const logRequest = requestLog(log);
  const Base = Probot.defaults({
    appId: 1,
    privateKey: 'unused in setup mode',
    log,
  }) as typeof Probot;
  // Probot's server runs the webhook middleware first for every request: each gets its line.
  class SetupProbot extends Base {
    override async getNodeMiddleware(
      options?: Parameters<Probot['getNodeMiddleware']>[0],
    ): Promise<NodeMiddleware> {
      const inner = (await super.getNodeMiddleware(options)) as NodeMiddleware;
      return (req, res, next) => {
        logRequest(req, res);
        return inner(req, res, next);
      };
    }
  }
  const server = new Server({
    host,
    port,
    log: withoutProbotHttpLog(log),
    // Setup mode takes no webhook; Probot wants credentials all the same (probot/lib/run.js).
    Probot: SetupProbot,
  });
  const { setupAppFactory, ManifestCreation } = await probotSetupApp();
  withSignInCallback({ ManifestCreation }, env);
  const setup = await setupAppFactory({
    host,
    port,
    log: setupLog(log.child({ component: 'setup' })),
    updateEnv: (values) => writeDotenv(values),
    ...(options.SmeeClient ? { SmeeClient: options.SmeeClient } : {}),
  })();
  server.addHandler((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/probot') withManualSteps(req, res, env);
    if (req.method === 'GET' && path === '/probot/import') withWebhookUrl(req, res, env);
    return setup(req, res);
  });
  await server.start();
  const gitHub = githubHost(env);
  log.warn(
    {
      setupPage: `http://${host}:${server.port}/probot`,
      setByHand: BY_HAND,
      registerAt: `${gitHub}/settings/apps/new`,
      webhookProxy: proxy !== undefined,
    },
    'setup mode: no APP_ID. Open the setup page to register the app from app.yml; without network, register it by hand with the permissions and events of app.yml, put APP_ID, PRIVATE_KEY and WEBHOOK_SECRET in .env and restart',
  );
  if (!proxy) {
    log.warn(
      'no WEBHOOK_PROXY_URL: GitHub cannot deliver webhooks to a machine without a public URL; set it to a smee.io channel for local development',
    );
  }
  return { port: server.port, stop: () => server.stop() };
}

async function probotSetupApp(): Promise<ProbotSetupApp & ProbotManifestCreation> {
  const lib = dirname(fileURLToPath(import.meta.resolve('probot')));
  const setup = (await import(pathToFileURL(join(lib, 'apps', 'setup.js')).href)) as ProbotSetupApp;
  // The same module instance setup.js imports, so the callback below reaches its manifest.
  const manifest = (await import(
    pathToFileURL(join(lib, 'manifest-creation.js')).href
  )) as ProbotManifestCreation;
  return { ...setup, ...manifest };
}

/** The environment of the latest startSetup (the manifest patch is made once per process). */
const setupEnv: { current?: Readonly<Record<string, string | undefined>> } = {};

/** Where the board's sign-in returns (docs/protocol.md §14): CLAIMS_PUBLIC_URL, else `base`. */
function callbackUrl(env: Readonly<Record<string, string | undefined>>, base: string): string {
  return `${publicBase(env, base)}/claims/callback`;
}

/** Where GitHub delivers webhooks: the proxy channel when set, else the path the app serves. */
function webhookUrl(env: Readonly<Record<string, string | undefined>>, base: string): string {
  const proxy = (env.WEBHOOK_PROXY_URL ?? '').trim();
  return proxy || `${publicBase(env, base)}${WEBHOOK_PATH}`;
}

/** CLAIMS_PUBLIC_URL without a trailing slash, else `base`. */
function publicBase(env: Readonly<Record<string, string | undefined>>, base: string): string {
  return (env.CLAIMS_PUBLIC_URL ?? '').trim().replace(/\/+$/, '') || base;
}

/**
 * app.yml's `callback_urls` is a placeholder (https://example.com/...): GitHub sends the
 * board's sign-in back only to a registered callback URL, so the manifest registers this
 * app's own: `CLAIMS_PUBLIC_URL`, else the address the setup page was opened at. Probot's
 * manifest registers webhooks at `<base>/`, which the app answers 404: it registers the
 * path webhooks are served at (or WEBHOOK_PROXY_URL's channel) instead.
 */
function withSignInCallback(
  { ManifestCreation }: ProbotManifestCreation,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const proto = ManifestCreation.prototype as {
    getManifest(options: { pkg: unknown; baseUrl: string }): string;
    claimWardenCallback?: true;
  };
  setupEnv.current = env;
  if (proto.claimWardenCallback) return;
  const original = proto.getManifest;
  proto.getManifest = function getManifest(options) {
    const manifest = JSON.parse(original.call(this, options)) as Record<string, unknown>;
    const env = setupEnv.current ?? {};
    manifest.callback_urls = [callbackUrl(env, options.baseUrl)];
    const hook = (manifest.hook_attributes ?? {}) as Record<string, unknown>;
    manifest.hook_attributes = { ...hook, url: webhookUrl(env, options.baseUrl) };
    return JSON.stringify(manifest);
  };
  proto.claimWardenCallback = true;
}

/**
 * Probot's setup log with its banner (eight `info` lines, two of them empty) left out, as
 * our own setup-mode line says the same in one; its smee.io warning says what will help.
 */
function setupLog(log: Logger): Logger {
  const banner = new Set([
    '',
    'Welcome to Probot!',
    'Probot is in setup mode, webhooks cannot be received and',
    'custom routes will not work until APP_ID and PRIVATE_KEY',
    'are configured in .env.',
    'Once you are done, restart the server.',
  ]);
  return new Proxy(log, {
    get(target, key, receiver) {
      if (key === 'info') {
        return (message: unknown, ...rest: unknown[]) => {
          if (typeof message === 'string') {
            if (banner.has(message) || message.startsWith('Please follow the instructions at')) {
              return;
            }
            if (message.startsWith('Probot has been set up')) {
              target.info(
                'the app is registered and .env is written: restart the server (npm start)',
              );
              return;
            }
          }
          (target.info as (...args: unknown[]) => void)(message, ...rest);
        };
      }
      if (key === 'warn') {
        return (message: unknown, ...rest: unknown[]) => {
          if (typeof message === 'string' && message.startsWith('Unable to connect to smee.io')) {
            target.warn(
              { registerByHand: BY_HAND },
              'could not reach smee.io for a webhook channel (no network?). The setup page still works offline: register the app by hand as it says. For webhooks on this machine, set WEBHOOK_PROXY_URL to a channel made at https://smee.io/new once online, or give the app a public URL; NO_SMEE_SETUP=true skips this attempt',
            );
            return;
          }
          (target.warn as (...args: unknown[]) => void)(message, ...rest);
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * Probot's import page says "Replace your app's Webhook URL with" and then
 * WEBHOOK_PROXY_URL, empty when none is set: name the URL GitHub must deliver to.
 */
function withWebhookUrl(
  req: IncomingMessage,
  res: ServerResponse,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const proxy = (env.WEBHOOK_PROXY_URL ?? '').trim();
  const direct = `${publicBase(env, baseUrlOf(req))}${WEBHOOK_PATH}`;
  const target = proxy
    ? `<b>${escapeHtml(proxy)}</b> (<code>WEBHOOK_PROXY_URL</code>)`
    : `<b>${escapeHtml(direct)}</b>: this app's webhook address, which GitHub must be able to reach. On a machine without a public URL, use a channel from <a href="https://smee.io/new">smee.io/new</a> instead and set it as <code>WEBHOOK_PROXY_URL</code>`;
  replaceInPage(res, (page) =>
    page.replace(/(Replace your app's Webhook URL with <br>)\s*<b>[^<]*<\/b>/, `$1\n${target}`),
  );
}

/** The address the browser opened this server at, as Probot's setup works it out. */
function baseUrlOf(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-proto'];
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = forwarded || encrypted ? 'https' : 'http';
  const host = req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost';
  return `${protocol}://${String(host).split(',')[0]}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Rewrites the HTML page Probot's handler ends `res` with. */
function replaceInPage(res: ServerResponse, rewrite: (page: string) => string): void {
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) =>
    end(typeof chunk === 'string' ? rewrite(chunk) : chunk, ...rest)) as typeof res.end;
}

function githubHost(env: Readonly<Record<string, string | undefined>>): string {
  return `${env.GHE_PROTOCOL || 'https'}://${env.GHE_HOST || 'github.com'}`;
}

/** Adds the by-hand steps to Probot's setup page, which offers only the manifest flow. */
function withManualSteps(
  req: IncomingMessage,
  res: ServerResponse,
  env: Readonly<Record<string, string | undefined>>,
) {
  const callback = callbackUrl(env, baseUrlOf(req));
  replaceInPage(res, (page) => page.replace('</body>', `${manualSteps(env, callback)}</body>`));
}

function manualSteps(env: Readonly<Record<string, string | undefined>>, callback: string): string {
  const gitHub = githubHost(env);
  const proxy = env.WEBHOOK_PROXY_URL
    ? `<p>Webhooks reach this machine through <code>WEBHOOK_PROXY_URL</code>.</p>`
    : `<p>No <code>WEBHOOK_PROXY_URL</code> is set: GitHub cannot deliver webhooks to a machine
without a public URL. For local development set it to a <a href="https://smee.io">smee.io</a>
channel; otherwise give the app a public URL.</p>`;
  return `
<section id="claim-warden-by-hand" class="box-shadow rounded-2 border p-6 bg-white mt-4 text-left">
  <h2 class="alt-h3 mb-2">No network from here? Set it by hand</h2>
  <p>The button above needs a browser that reaches <code>${gitHub}</code> and a GitHub that can
  reach this server. Where that cannot work, register a GitHub App at
  <a href="${gitHub}/settings/apps/new">${gitHub}/settings/apps/new</a> with the permissions and
  events listed in <code>app.yml</code>, then set these in <code>.env</code> and restart:</p>
  <ul>${BY_HAND.map((name) => `<li><code>${name}</code></li>`).join('')}</ul>
  ${proxy}
  <p>The claims board's sign-in returns to <code>${escapeHtml(callback)}</code>, which the button
  above registers as the app's callback URL (registering by hand, enter it too). If browsers
  reach this app at another address, set <code>CLAIMS_PUBLIC_URL</code> to it and reload this
  page before registering.</p>
</section>`;
}
