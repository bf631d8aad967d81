import type { BoardView } from './board-view.js';
import { escapeHtml as e } from './escape-html.js';
import { formatAgo, formatDuration } from './format-duration.js';

/** The document shell every board page shares: the served stylesheet, no inline code (CSP). */
export function pageShell(
  title: string,
  body: string,
  options: { root: string; script?: boolean },
): string {
  // Links are relative to <base>, the app's root as browsers see it (CLAIMS_PUBLIC_URL's path).
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<base href="${e(options.root)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${e(title)}</title>
<link rel="stylesheet" href="claims/assets/board.css">
${options.script ? '<script src="claims/assets/board.js" defer></script>\n' : ''}</head>
<body>
${body}
</body>
</html>
`;
}

/** The column headers of the claims table, in order; the client script uses the same. */
export const CLAIM_COLUMNS = [
  'Repository',
  'Issue',
  'Holder',
  'Session',
  'Branch',
  'Stage',
  'Paths',
  'Started',
  'Last heartbeat',
  'Time to stale',
] as const;

type Claim = BoardView['claims'][number];
type Change = BoardView['changes'][number];

/**
 * The claims board (docs/protocol.md §14), rendered whole on the server so the first view
 * needs no JavaScript; the script then refreshes it from data.json. Every value from GitHub
 * or a marker is escaped (titles, logins and branches are user text).
 */
export function renderBoardPage(view: BoardView, logoutToken: string, root: string): string {
  const now = Date.parse(view.generatedAt);
  const body = `<header class="top">
  <a class="brand" href="claims">claim-warden <span>claims</span></a>
  <div class="who">
    ${avatar(view.user.avatarUrl, 20)}<span class="login">${e(view.user.login)}</span>
    <form method="post" action="claims/logout">
      <input type="hidden" name="token" value="${e(logoutToken)}">
      <button type="submit" class="btn">Sign out</button>
    </form>
  </div>
</header>
<main>
  <h1>Live claims</h1>
  <p class="status" id="status" role="status" aria-live="polite">${summaryText(view)}</p>
  <form class="filters" method="get" action="claims" id="filters">
    ${select('repo', 'Repository', view.options.repos, view.filters.repo, 'All repositories')}
    ${select('stage', 'Stage', view.options.stages, view.filters.stage, 'All stages')}
    ${select('holder', 'Holder', view.options.holders, view.filters.holder, 'All holders')}
    <button type="submit" class="btn">Filter</button>
  </form>
  <div class="table-wrap">
  <table class="claims" id="claims">
    <caption class="sr-only">Live claims, the nearest to going stale first</caption>
    <thead><tr>${CLAIM_COLUMNS.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>
    <tbody id="claim-rows">${view.claims.map((c) => claimRow(c, now)).join('\n') || emptyRow()}</tbody>
  </table>
  </div>
  <section aria-labelledby="repos-h">
    <h2 id="repos-h">Repositories</h2>
    <div class="table-wrap">
    <table class="repos" id="repos">
      <thead><tr><th scope="col">Repository</th><th scope="col">Live claims</th><th scope="col">Claimable</th></tr></thead>
      <tbody id="repo-rows">${view.repos.map(repoRow).join('\n')}</tbody>
    </table>
    </div>
  </section>
  <section aria-labelledby="changes-h">
    <h2 id="changes-h">Last 24 hours</h2>
    <ul class="changes" id="changes">${view.changes.map((c) => changeItem(c, now)).join('\n') || '<li class="muted">No expiries, losses or takeovers.</li>'}</ul>
  </section>
</main>`;
  return pageShell('Claims · claim-warden', body, { root, script: true });
}

function summaryText(view: BoardView): string {
  const n = view.claims.filter((c) => c.kind !== 'review').length;
  const reviewing = view.claims.length - n;
  const time = view.generatedAt.slice(11, 19);
  return `${n} live ${n === 1 ? 'claim' : 'claims'}${reviewing > 0 ? ` · ${reviewing} in review` : ''} · updated <time datetime="${e(view.generatedAt)}">${time} UTC</time>`;
}

function select(
  name: string,
  label: string,
  options: readonly string[],
  chosen: string,
  all: string,
): string {
  const items = [`<option value="">${e(all)}</option>`];
  // A chosen value that is not among the options (no claim has it now) stays selectable.
  const values = chosen !== '' && !options.includes(chosen) ? [...options, chosen] : options;
  for (const value of values) {
    items.push(
      `<option value="${e(value)}"${value === chosen ? ' selected' : ''}>${e(value)}</option>`,
    );
  }
  return `<label>${e(label)} <select name="${name}" id="f-${name}">${items.join('')}</select></label>`;
}

function avatar(url: string, size: number): string {
  if (!/^https?:\/\//.test(url)) return '';
  return `<img class="avatar" src="${e(url)}" alt="" width="${size}" height="${size}">`;
}

function time(iso: string, text: string): string {
  return `<time datetime="${e(iso)}" title="${e(iso.slice(0, 19).replace('T', ' '))} UTC">${e(text)}</time>`;
}

/**
 * One claim row; `data-label` lets the phone layout show each cell with its header. A
 * person's claim (docs/protocol.md §16) carries a `person` badge and no session or branch.
 */
function claimRow(c: Claim, now: number): string {
  const heartbeat = Date.parse(c.heartbeat);
  const none = '<span class="muted">—</span>';
  const awaiting = c.kind === 'review';
  const badge =
    (c.kind === 'person' ? ' <span class="badge badge-person">person</span>' : hostedBadge(c)) +
    reviewBadge(c);
  // An issue marked for review by hand, nobody holding it, has nobody to name.
  const holder =
    awaiting && !c.holder
      ? none
      : `${avatar(c.avatarUrl, 20)}<a href="${e(safeUrl(c.commentUrl))}">${e(c.holder)}</a>`;
  const cells = [
    e(c.repo),
    `<a href="${e(safeUrl(c.url))}">${e(c.title || `#${c.number}`)}</a> <span class="muted">#${c.number}</span>`,
    `${holder}${badge}`,
    c.session === null ? none : `<code>${e(c.session)}</code>`,
    c.branch === null ? none : `<code class="branch" title="${e(c.branch)}">${e(c.branch)}</code>`,
    `<span class="stage stage-${e(stageClass(c.stage))}">${e(c.stage)}</span>`,
    c.paths.length ? c.paths.map(pathCode).join(' ') : none,
    awaiting ? none : time(c.started, formatAgo(now - Date.parse(c.started))),
    awaiting ? none : time(c.heartbeat, formatAgo(now - heartbeat)),
    awaiting
      ? '<span class="muted">awaiting review</span>'
      : c.staleAt === null
        ? '<span class="muted">does not expire</span>'
        : staleBar(heartbeat, Date.parse(c.staleAt), now),
  ];
  const kind = c.kind === 'person' || c.kind === 'review' ? ` class="${c.kind}"` : '';
  return `<tr${kind}>${cells.map((cell, i) => `<td data-label="${CLAIM_COLUMNS[i]}">${cell}</td>`).join('')}</tr>`;
}

/**
 * docs/protocol.md §18: a hosted agent's row carries a badge with the bot's name (without its
 * `[bot]` suffix).
 */
function hostedBadge(c: Claim): string {
  if (c.kind !== 'hosted') return '';
  const name = c.holder.replace(/\[bot\]$/i, '');
  return ` <span class="badge badge-hosted" title="hosted agent">${e(name)}</span>`;
}

/**
 * docs/protocol.md §17: the row of an issue carrying the needs-review label has a badge whose
 * title names the stale session's work when the board knows it.
 */
function reviewBadge(c: Claim): string {
  if (c.review === undefined) return '';
  return ` <span class="badge badge-review" title="${e(reviewTitle(c.review))}">needs review</span>`;
}

/** The badge's title: "3 commits on feat/x (1a2b3c4) await review", or why there is none. */
function reviewTitle(work: Claim['review']): string {
  if (!work) return 'marked for review; the work is not known here';
  const commits = `${work.aheadBy} commit${work.aheadBy === 1 ? '' : 's'}`;
  const pull = work.pull === null ? '' : ` and pull request #${work.pull}`;
  return `${commits} on ${work.branch} (${work.head})${pull} await review`;
}

/** A claimed path that a narrow cell breaks only after a `/`, never inside a name. */
function pathCode(path: string): string {
  const names = path.split('/').map((name) => `<span>${e(name)}</span>`);
  return `<code class="path">${names.join('/<wbr>')}</code>`;
}

/** The time left before a claim goes stale, drawn against its window. */
function staleBar(heartbeat: number, staleAt: number, now: number): string {
  const windowMs = Math.max(1, staleAt - heartbeat);
  const left = Math.max(0, staleAt - now);
  return `<meter min="0" max="${windowMs}" low="${Math.round(windowMs / 4)}" high="${Math.round(windowMs / 2)}" optimum="${windowMs}" value="${left}">${Math.round((100 * left) / windowMs)}%</meter> <span>${e(formatDuration(left))} left</span>`;
}

function emptyRow(): string {
  return `<tr><td colspan="${CLAIM_COLUMNS.length}" class="muted">No live claims match.</td></tr>`;
}

function repoRow(r: BoardView['repos'][number]): string {
  const claimable =
    r.claimable === null
      ? '<span class="muted" title="the app keeps no index of open issues yet">unknown</span>'
      : String(r.claimable);
  return `<tr><td data-label="Repository">${e(r.repo)}</td><td data-label="Live claims">${r.live}</td><td data-label="Claimable">${claimable}</td></tr>`;
}

const CHANGE_WORDS = { expiry: 'expired', loss: 'lost the race', takeover: 'taken over' } as const;

function changeItem(c: Change, now: number): string {
  // A loss is to the older holder (or a person, docs/protocol.md §16); a takeover is by the
  // claim that replaced the stale one.
  const by = c.by
    ? ` ${c.kind === 'loss' ? 'to' : 'by'} <strong>${e(c.by.login)}</strong> ${'session' in c.by ? `(<code>${e(c.by.session)}</code>)` : '<span class="badge badge-person">person</span>'}`
    : '';
  return `<li><span class="kind kind-${c.kind}">${CHANGE_WORDS[c.kind]}</span> <strong>${e(c.author)}</strong> (<code>${e(c.session)}</code>) on <a href="${e(safeUrl(c.url))}">${e(c.repo)}#${c.number}</a> ${e(c.title)}${c.kind === 'expiry' ? '' : by} · ${time(c.at, formatAgo(now - Date.parse(c.at)))}</li>`;
}

/** Links only to http(s) addresses: a URL from the store never becomes `javascript:`. */
function safeUrl(url: string): string {
  return /^https?:\/\//.test(url) ? url : '#';
}

function stageClass(stage: string): string {
  return stage.startsWith('fix-round-') ? 'fix-round' : stage;
}
