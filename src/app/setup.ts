import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Logger, pino } from 'pino';
import { Probot, Server } from 'probot';
import { checkListenHost } from '../config/check-listen-host.js';
import { requestLog } from './request-log.js';
import type { NodeMiddleware } from './webhook-door.js';
import { withoutProbotHttpLog } from './without-probot-http-log.js';
import { writeDotenv } from './write-dotenv.js';

/** The setup server started by startSetup. */
interface SetupServer {
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
  }): () => Promise<RequestHandler>;
}

/** What an operator sets by hand when GitHub's manifest flow cannot complete from here. */
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
): Promise<SetupServer> {
  const log = pino({ level: env.LOG_LEVEL || 'info', name: 'claim-warden' });
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
  const { setupAppFactory } = await probotSetupApp();
  const setup = await setupAppFactory({
    host,
    port,
    log: log.child({ name: 'setup' }),
    updateEnv: (values) => writeDotenv(values),
  })();
  server.addHandler((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/probot') withManualSteps(res, env);
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

async function probotSetupApp(): Promise<ProbotSetupApp> {
  const lib = dirname(fileURLToPath(import.meta.resolve('probot')));
  return (await import(pathToFileURL(join(lib, 'apps', 'setup.js')).href)) as ProbotSetupApp;
}

function githubHost(env: Readonly<Record<string, string | undefined>>): string {
  return `${env.GHE_PROTOCOL || 'https'}://${env.GHE_HOST || 'github.com'}`;
}

/** Adds the by-hand steps to Probot's setup page, which offers only the manifest flow. */
function withManualSteps(res: ServerResponse, env: Readonly<Record<string, string | undefined>>) {
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) =>
    end(
      typeof chunk === 'string' ? chunk.replace('</body>', `${manualSteps(env)}</body>`) : chunk,
      ...rest,
    )) as typeof res.end;
}

function manualSteps(env: Readonly<Record<string, string | undefined>>): string {
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
</section>`;
}
