import { parseClaimMarker } from '../src/claims/marker.js';
import type { FakeGitHub, RecordedRequest } from '../test/fake-github/fake-github.js';

/** Pads an actor's name so the timeline reads as columns. */
const ACTOR_WIDTH = 8;

/**
 * Prints what each actor did and what the app wrote, with the time since the start. The app's
 * writes come from the fake's request log, so the timeline shows exactly what reached GitHub.
 */
export class Timeline {
  readonly #fake: FakeGitHub;
  readonly #print: (line: string) => void;
  readonly #start = Date.now();
  /** The latest time printed: a line is never shown earlier than the one above it. */
  #last = 0;
  #seen = 0;

  constructor(fake: FakeGitHub, print: (line: string) => void) {
    this.#fake = fake;
    this.#print = print;
    this.#seen = fake.requests.length;
  }

  /**
   * When the app's first call since the last flush reached GitHub, if it made one: an actor
   * line about what started those calls (the sweep) is printed at that time, not after them.
   */
  firstAppCallAt(): Date | undefined {
    return this.#fake.requests.slice(this.#seen).find((r) => r.actor === this.#fake.botLogin)?.at;
  }

  /** A line for something an actor (a person, an agent) did. */
  say(actor: string, text: string, at: Date = new Date()): void {
    this.#print(`${this.#elapsed(at)}  ${actor.padEnd(ACTOR_WIDTH)} ${text}`);
  }

  /** A line without an actor: a heading or an explanation. */
  note(text: string): void {
    this.#print(`${' '.repeat(7)}  ${' '.repeat(ACTOR_WIDTH)} ${text}`);
  }

  /**
   * Prints the app's writes since the last call, one line each, and how many reads it made;
   * "nothing" when it made no call at all. Returns the number of calls.
   */
  flushApp(): number {
    const fresh = this.#fake.requests.slice(this.#seen);
    this.#seen += fresh.length;
    const mine = fresh.filter((r) => r.actor === this.#fake.botLogin);
    const reads = mine.filter((r) => r.method === 'GET').length;
    for (const request of mine) {
      const text = describeWrite(this.#fake, request);
      // The fake's clock stamped the request: the line shows when the write reached GitHub.
      if (text) this.say('app', text, request.at);
    }
    if (mine.length === 0) this.say('app', 'nothing: no GitHub call at all');
    else if (reads > 0) this.note(`(and ${reads} read${reads === 1 ? '' : 's'} of GitHub)`);
    return mine.length;
  }

  /** One line with an issue's labels and assignees. */
  state(repo: string, number: number): void {
    const issue = this.#fake.issue(repo, number);
    const labels = issue.labels.length ? issue.labels.join(', ') : 'none';
    const assignees = issue.assignees.length ? issue.assignees.join(', ') : 'nobody';
    this.note(`→ #${number} now: labels ${labels}; assigned ${assignees}`);
  }

  #elapsed(at: Date): string {
    this.#last = Math.max(this.#last, at.getTime() - this.#start);
    return `+${(this.#last / 1000).toFixed(1).padStart(5)}s`;
  }
}

/** A readable line for one write the app made, or null for a read. */
export function describeWrite(fake: FakeGitHub, request: RecordedRequest): string | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const failed = request.status >= 400 ? ` (GitHub answered ${request.status})` : '';
  const body = (request.body ?? {}) as Record<string, unknown>;
  const path = request.path;
  let m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path);
  if (m && request.method === 'PATCH') {
    const id = Number(m[1]);
    const text = typeof body.body === 'string' ? body.body : '';
    const marker = parseClaimMarker(text);
    const reason = /^- Reason: (.*)$/m.exec(text)?.[1];
    const author = fake.comment(id)?.user?.login ?? 'someone';
    const what = marker
      ? `stage=${marker.stage}${marker.outcome ? ` outcome=${marker.outcome}` : ''}`
      : 'edited';
    return `finalises ${author}'s claim (comment ${id}): ${what}${reason ? ` — ${reason}` : ''}${failed}`;
  }
  m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/labels(?:\/(.+))?$/.exec(path);
  if (m) {
    if (request.method === 'DELETE') {
      return `removes the label ${decodeURIComponent(m[2] ?? '')} from #${m[1]}${failed}`;
    }
    const labels = Array.isArray(body.labels) ? body.labels.join(', ') : '?';
    return `adds the label ${labels} to #${m[1]}${failed}`;
  }
  m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/assignees$/.exec(path);
  if (m) {
    const logins = Array.isArray(body.assignees) ? body.assignees.join(', ') : '?';
    const verb = request.method === 'DELETE' ? 'unassigns' : 'assigns';
    return `${verb} ${logins} ${request.method === 'DELETE' ? 'from' : 'to'} #${m[1]}${failed}`;
  }
  m = /^\/repos\/([^/]+\/[^/]+)\/labels$/.exec(path);
  if (m && request.method === 'POST') {
    return `creates the label ${String(body.name)} on ${m[1]}${failed}`;
  }
  m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path);
  if (m && request.method === 'POST') {
    const text = typeof body.body === 'string' ? body.body : '';
    const human = text.split('\n').find((line) => !line.startsWith('<!--')) ?? '';
    const short = human.length > 90 ? `${human.slice(0, 90)}…` : human;
    return `posts a note on #${m[1]}: "${short}"${failed}`;
  }
  if (path.startsWith('/app/')) return null;
  return `${request.method} ${path}${failed}`;
}
