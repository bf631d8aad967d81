import type { PublicIssue } from '../../../claims/public-claim.js';
import { listOperation } from '../../../operations/catalogue.js';
import { unverifiable } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import type { ClaimsApi } from '../../io/claims-api-client.js';
import { type ClaimView, describeClaim, viewOfClaim } from '../replies/claim-view.js';
import { okAnswer } from './api-shape.js';
import { callOperation } from './call-operation.js';

/** The work queue's filters (docs/protocol.md §9), as the CLI's flags and the MCP tool give them. */
interface ListRequest {
  readonly claimable?: boolean;
  /** docs/protocol.md §17: the issues labelled for review (true) or the others. */
  readonly needsReview?: boolean;
  /** `me` or a login. */
  readonly claimedBy?: string;
  readonly assignedToMe?: boolean;
  /** `owner/name`. */
  readonly repo?: string;
  readonly label?: string;
  readonly limit?: number;
  readonly cursor?: string;
  /** Follow `nextCursor` to the last page. */
  readonly all?: boolean;
}

/** One issue of the queue as the client reports it. */
interface ListItem {
  readonly issue: PublicIssue;
  readonly claim: ClaimView | null;
}

/** How many pages `--all` follows at most: 1,000 pages of 100 is the whole of any index. */
const MAX_PAGES = 1000;

/**
 * `list`: the work queue of the app (`GET …/issues`, docs/protocol.md §9), oldest issue
 * first, one line per issue. The queue lives in the app, so the one implementation serves the
 * API, this command and the MCP tool: a loop that lists through one and claims through another
 * sees one set. `all` follows `nextCursor` until the last page.
 */
export async function list(api: ClaimsApi, request: ListRequest): Promise<CommandResult> {
  const items: ListItem[] = [];
  let cursor = request.cursor;
  let next: string | null = null;
  const seen = new Set<string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const reply = await callOperation(api, listOperation, {}, { query: query(request, cursor) });
    const body = okAnswer(
      listOperation.answer,
      reply,
      'the work queue',
      'a page (docs/protocol.md §9)',
    );
    for (const { issue, claim } of body.items) {
      items.push({ issue, claim: claim ? viewOfClaim(claim, true) : null });
    }
    next = body.nextCursor;
    if (!request.all || next === null) break;
    // A cursor coming round again would loop for ever: say so rather than list twice.
    if (seen.has(next)) {
      throw unverifiable('the work queue handed back a cursor it gave before; list again');
    }
    seen.add(next);
    cursor = next;
  }
  const lines = items.map(describeItem);
  if (items.length === 0) lines.push('no issues match');
  if (next !== null) lines.push(`more: claim-warden list … --cursor ${next} (or --all)`);
  return ok(lines.join('\n'), { items, nextCursor: next });
}

/** The query string of one page. */
function query(request: ListRequest, cursor: string | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (request.claimable !== undefined) params.set('claimable', String(request.claimable));
  if (request.needsReview !== undefined) params.set('needsReview', String(request.needsReview));
  if (request.claimedBy !== undefined) params.set('claimedBy', request.claimedBy);
  if (request.assignedToMe) params.set('assignedToMe', 'true');
  if (request.repo !== undefined) params.set('repo', request.repo);
  if (request.label !== undefined) params.set('label', request.label);
  if (request.limit !== undefined) params.set('limit', String(request.limit));
  if (cursor !== undefined) params.set('cursor', cursor);
  return params;
}

/** `acme/widgets#3 Fix the widget [bug]: free`, or the holder as direct mode names claims. */
function describeItem(item: ListItem): string {
  const { issue, claim } = item;
  const labels = issue.labels.length > 0 ? ` [${issue.labels.join(', ')}]` : '';
  const state = claim ? `held: ${describeClaim(claim)}` : 'free';
  return `${issue.repo}#${issue.number} ${issue.title}${labels}: ${state}`;
}
