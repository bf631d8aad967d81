import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type VisibleRepos, visibleRepoKey } from './board-source.js';
import { githubJson } from './github-json.js';

const Installations = z.object({ installations: z.array(z.object({ id: z.number() })) });
const Repositories = z.object({ repositories: z.array(z.object({ full_name: z.string() })) });

/** One repository the user may see, for the filter list. */
interface VisibleRepo {
  readonly installationId: number;
  readonly fullName: string;
}

/** What a user may see: keys for filtering and the repositories by name. */
export interface Visibility {
  readonly keys: VisibleRepos;
  readonly repos: readonly VisibleRepo[];
}

/** How long a user's visibility is reused: short, so a removed collaborator drops off soon. */
const VISIBILITY_TTL_MS = 2 * 60_000;

/** GitHub paginates these lists at most 100 a page; more pages than this are not followed. */
const MAX_PAGES = 50;

/**
 * The repositories both the app's installations and the user reach (docs/protocol.md §14):
 * `GET /user/installations` and `GET /user/installations/{id}/repositories` with the user's
 * token, cached per replica for VISIBILITY_TTL_MS under a hash of the token (never the token).
 * Throws GitHubAnswerError when GitHub refuses the token (401: signed out) or fails.
 */
export class VisibleReposCache {
  private readonly entries = new Map<string, { at: number; value: Promise<Visibility> }>();

  constructor(
    private readonly apiUrl: string,
    private readonly now: () => Date,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The user's visibility, from the cache when fresh. */
  get(token: string): Promise<Visibility> {
    const key = createHash('sha256').update(token).digest('hex');
    const now = this.now().getTime();
    const cached = this.entries.get(key);
    if (cached && now - cached.at < VISIBILITY_TTL_MS) return cached.value;
    for (const [k, entry] of this.entries) {
      if (now - entry.at >= VISIBILITY_TTL_MS) this.entries.delete(k);
    }
    const value = this.load(token);
    this.entries.set(key, { at: now, value });
    // A failure is not cached: the next view asks GitHub again.
    value.catch(() => this.entries.delete(key));
    return value;
  }

  private async load(token: string): Promise<Visibility> {
    const installations: number[] = [];
    for await (const body of this.pages(`${this.apiUrl}/user/installations?per_page=100`, token)) {
      installations.push(...Installations.parse(body).installations.map((i) => i.id));
    }
    const repos: VisibleRepo[] = [];
    for (const id of installations) {
      const first = `${this.apiUrl}/user/installations/${id}/repositories?per_page=100`;
      for await (const body of this.pages(first, token)) {
        for (const repo of Repositories.parse(body).repositories) {
          repos.push({ installationId: id, fullName: repo.full_name });
        }
      }
    }
    repos.sort((a, b) => a.fullName.localeCompare(b.fullName));
    return { keys: new Set(repos.map((r) => visibleRepoKey(r.installationId, r.fullName))), repos };
  }

  private async *pages(first: string, token: string): AsyncGenerator<unknown> {
    let url: string | null = first;
    for (let page = 0; url !== null && page < MAX_PAGES; page++) {
      const answer: { body: unknown; next: string | null } = await githubJson(
        url,
        token,
        this.fetchImpl,
      );
      yield answer.body;
      url = answer.next;
    }
  }
}
