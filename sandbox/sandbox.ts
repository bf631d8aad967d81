/**
 * `npm run sandbox`: claim-warden without a GitHub App. Starts a fake GitHub and the app on
 * loopback, plays a short story and prints its timeline, then stays up so you can post
 * comments to the fake with curl and watch the app answer, until Ctrl-C.
 *
 *     npm run sandbox                  # story, then stay up
 *     npm run sandbox -- --once        # story, then exit (0 when it ended as it should)
 *     npm run sandbox -- --port 4000   # the fake GitHub on a port of your choice
 */
import { parseClaimMarker } from '../src/claims/marker.js';
import type { RecordedRequest } from '../test/fake-github/fake-github.js';
import { type Stack, startStack } from './stack.js';
import { checkStory, playStory, STORY_ENV, STORY_REPO, seedStory } from './story.js';
import { describeWrite } from './timeline.js';

/** Command-line options of the sandbox. */
export interface SandboxOptions {
  readonly once: boolean;
  /** The fake GitHub's port; 0 picks a free one. */
  readonly port: number;
}

/** Reads `--once` and `--port N`; throws naming a bad argument. */
export function parseSandboxArgs(argv: readonly string[]): SandboxOptions {
  let once = false;
  let port = 0;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--once') once = true;
    else if (arg === '--port') {
      port = Number(argv[++i]);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new Error('--port needs a port number, such as --port 4000');
      }
    } else throw new Error(`unknown argument ${arg}: use --once and --port N`);
  }
  return { once, port };
}

/** Starts the stack of the story: the fake (on `port`) seeded with the cast, and the app. */
export function startSandbox(port = 0): Promise<Stack> {
  return startStack({
    fake: { port, log: () => {} },
    seed: seedStory,
    env: { ...STORY_ENV, ...(process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {}) },
    // The claims board (docs/protocol.md §14) signs in with the fake GitHub's OAuth web flow:
    // its sign-in page asks whom to sign in as, so the board can be tried without GitHub.
    envFor: (fake) => ({
      GITHUB_CLIENT_ID: fake.oauth.client.clientId,
      GITHUB_CLIENT_SECRET: fake.oauth.client.clientSecret,
    }),
  });
}

/** What to type to play along: a curl that posts a claim as alice, and one to look. */
export function instructions(stack: Stack, issue: number): string[] {
  const { fake } = stack;
  const token = fake.tokenFor('alice');
  const api = `${fake.apiUrl}/repos/${STORY_REPO}/issues/${issue}`;
  const now = '$(date -u +%Y-%m-%dT%H:%M:%SZ)';
  const marker = `<!-- praetor-claim v=1 session=my-session lane=main branch=fix/${issue} started=${now} updated=${now} stage=claimed assignee=claim -->`;
  return [
    'The sandbox stays up until Ctrl-C; the app prints what it does here as it happens.',
    `  fake GitHub: ${fake.url} (REST API under ${fake.apiUrl}); the app: ${stack.appUrl}`,
    `  alice's token: ${token} (bob: ${fake.tokenFor('bob')}, mallory: ${fake.tokenFor('mallory')})`,
    '',
    `Claim issue #${issue} as alice:`,
    `  curl -s -X POST ${api}/comments \\`,
    `    -H 'Authorization: token ${token}' -H 'Content-Type: application/json' \\`,
    `    -d "{\\"body\\": \\"${marker}\\"}"`,
    '',
    `See what the app made true (labels, assignees):`,
    `  curl -s ${api} -H 'Authorization: token ${token}'`,
    `Read the thread:`,
    `  curl -s ${api}/comments -H 'Authorization: token ${token}'`,
    'Post as mallory (a passer-by) and nothing happens; edit the marker to stage=released',
    `(PATCH ${fake.apiUrl}/repos/${STORY_REPO}/issues/comments/<id>) and the app lets go.`,
    '',
    'Or claim with the claim-warden client (from this checkout), pointed at the sandbox by two',
    'variables:',
    `  export GITHUB_API_URL=${fake.apiUrl} GITHUB_TOKEN=${token}`,
    `  npx tsx src/client/cli/cli.ts claim ${STORY_REPO}#${issue} --session my-session --lane main --branch fix/${issue}`,
    `  npx tsx src/client/cli/cli.ts release ${STORY_REPO}#${issue} --session my-session --outcome abandoned`,
    '',
    `The claims board: open ${stack.appUrl}/claims and choose "Sign in with GitHub"; the fake`,
    "GitHub's sign-in page asks whom to sign in as: sign in as alice (or bob) to see the claims.",
  ];
}

/** A line for a write someone made with a token (curl), for the live watch. */
function describeUserWrite(request: RecordedRequest): string {
  const body = (request.body ?? {}) as { body?: unknown };
  const marker = typeof body.body === 'string' ? parseClaimMarker(body.body) : null;
  const claim = marker ? ` — a claim marker, stage=${marker.stage}` : '';
  const failed = request.status >= 400 ? ` (GitHub answered ${request.status})` : '';
  const comment = /\/issues\/(\d+)\/comments$/.exec(request.path);
  if (comment && request.method === 'POST') return `comments on #${comment[1]}${claim}${failed}`;
  if (/\/issues\/comments\/\d+$/.test(request.path) && request.method === 'PATCH') {
    return `edits comment ${request.path.split('/').pop()}${claim}${failed}`;
  }
  return `${request.method} ${request.path}${failed}`;
}

/** Prints every write made through the fake's API from now on; returns a stop function. */
function watch(stack: Stack, print: (line: string) => void): () => void {
  const { fake } = stack;
  let seen = fake.requests.length;
  const started = performance.now();
  const timer = setInterval(() => {
    const fresh = fake.requests.slice(seen);
    seen += fresh.length;
    for (const request of fresh) {
      if (request.method === 'GET' || request.actor === 'app-jwt') continue;
      const who = request.actor === fake.botLogin ? 'app' : request.actor;
      const text = who === 'app' ? describeWrite(fake, request) : describeUserWrite(request);
      if (!text) continue;
      const at = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
      print(`+${at}s  ${who.padEnd(8)} ${text}`);
    }
  }, 200);
  return () => clearInterval(timer);
}

/** Runs the sandbox; resolves the process exit code (`--once`) or never (until Ctrl-C). */
export async function runSandbox(options: SandboxOptions): Promise<number> {
  const print = (line: string) => console.log(line);
  const stack = await startSandbox(options.port);
  print('claim-warden sandbox: a fake GitHub and the app on loopback, no GitHub App needed.\n');
  let problems: string[];
  try {
    problems = checkStory(await playStory(stack, print));
  } catch (error) {
    await stack.close();
    throw error;
  }
  print('');
  if (problems.length > 0) {
    print('The story did not end as it should:');
    for (const problem of problems) print(`  ✗ ${problem}`);
  } else {
    print('The story ended as docs/protocol.md §4 says it should.');
  }
  if (options.once) {
    await stack.close();
    return problems.length === 0 ? 0 : 1;
  }

  const issue = stack.fake.createIssue(STORY_REPO, { title: 'Try it yourself', author: 'maria' });
  print('');
  for (const line of instructions(stack, issue)) print(line);
  print('');
  const stop = watch(stack, print);
  return new Promise<number>((resolve) => {
    const quit = () => {
      stop();
      print('sandbox: stopping.');
      stack.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.once('SIGINT', quit);
    process.once('SIGTERM', quit);
  });
}

const isEntry =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  let options: SandboxOptions;
  try {
    options = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  runSandbox(options).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('sandbox failed:', error);
      process.exit(1);
    },
  );
}
