/**
 * The board's stylesheet, served at `/claims/assets/board.css` (the CSP allows no inline
 * style). GitHub's Primer colours, light and dark by `prefers-color-scheme`; under 720 px the
 * claims table turns into one card per claim, each cell labelled with its header.
 */
export const BOARD_STYLES = `
:root {
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --subtle: #f6f8fa;
  --header-bg: #f6f8fa; --header-fg: #1f2328; --link: #0969da; --accent: #1f883d;
  --attention: #9a6700; --danger: #d1242f; --done: #8250df; --code-bg: rgba(129,139,152,0.12);
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #f0f6fc; --muted: #9198a1; --border: #3d444d; --subtle: #151b23;
    --header-bg: #010409; --header-fg: #f0f6fc; --link: #4493f8; --accent: #3fb950;
    --attention: #d29922; --danger: #f85149; --done: #ab7df8; --code-bg: rgba(101,108,118,0.2);
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
}
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
code { font: 12px ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace;
  background: var(--code-bg); padding: 0.1em 0.4em; border-radius: 6px; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; align-items: center; justify-content: space-between; gap: 12px;
  padding: 12px 24px; background: var(--header-bg); color: var(--header-fg); border-bottom: 1px solid var(--border); }
.brand { color: var(--header-fg); font-weight: 600; font-size: 16px; }
.brand span { color: var(--muted); font-weight: 400; }
.who { display: flex; align-items: center; gap: 8px; }
.who form { margin: 0; }
.avatar { border-radius: 50%; vertical-align: middle; margin-right: 6px; background: var(--subtle); }
.btn { display: inline-block; font: inherit; font-weight: 500; padding: 3px 12px; border-radius: 6px;
  border: 1px solid var(--border); background: var(--subtle); color: var(--fg); cursor: pointer; }
.btn:hover { text-decoration: none; border-color: var(--muted); }
.btn-primary { background: var(--accent); border-color: var(--accent); color: #ffffff; padding: 5px 16px; }
main { max-width: 1440px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 24px; font-weight: 600; margin: 8px 0 4px; }
h2 { font-size: 16px; font-weight: 600; margin: 32px 0 8px; }
.status { color: var(--muted); margin: 0 0 16px; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-end; margin-bottom: 16px; }
.filters label { display: flex; flex-direction: column; font-weight: 600; font-size: 12px; gap: 4px; }
.filters select { font: inherit; font-weight: 400; padding: 4px 8px; border-radius: 6px;
  border: 1px solid var(--border); background: var(--bg); color: var(--fg); min-width: 160px; }
.table-wrap { border: 1px solid var(--border); border-radius: 6px; overflow-x: auto; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-weight: 600; font-size: 12px; color: var(--muted); background: var(--subtle);
  padding: 8px 10px; border-bottom: 1px solid var(--border); white-space: nowrap; }
code.branch { display: inline-block; max-width: 12em; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; vertical-align: bottom; }
code.path { overflow-wrap: normal; }
code.path span { white-space: nowrap; }
td { padding: 8px 10px; border-top: 1px solid var(--border); vertical-align: top; }
tbody tr:first-child td { border-top: 0; }
tbody tr:hover td { background: var(--subtle); }
.stage { display: inline-block; padding: 0 7px; border-radius: 2em; font-size: 12px; font-weight: 500;
  border: 1px solid var(--border); white-space: nowrap; }
.stage-implementing, .stage-landing { color: var(--accent); border-color: var(--accent); }
.stage-review, .stage-queued { color: var(--done); border-color: var(--done); }
.stage-blocked { color: var(--danger); border-color: var(--danger); }
.stage-fix-round, .stage-needs-review { color: var(--attention); border-color: var(--attention); }
td[data-label="Session"], td[data-label="Started"], td[data-label="Last heartbeat"],
td[data-label="Time to stale"] { white-space: nowrap; }
meter { width: 72px; height: 10px; vertical-align: middle; }
.changes { list-style: none; margin: 0; padding: 0; border: 1px solid var(--border); border-radius: 6px; }
.changes li { padding: 8px 12px; border-top: 1px solid var(--border); }
.changes li:first-child { border-top: 0; }
.badge { display: inline-block; padding: 0 6px; margin-left: 4px; border-radius: 2em; font-size: 11px;
  font-weight: 600; border: 1px solid var(--border); vertical-align: middle;
  white-space: nowrap; }
.badge-person { color: var(--link); border-color: var(--link); }
.badge-hosted { color: var(--muted); border-color: var(--muted); }
.badge-review { color: var(--attention); border-color: var(--attention); }
.kind { display: inline-block; min-width: 88px; font-weight: 600; font-size: 12px; }
.kind-expiry { color: var(--attention); }
.kind-loss { color: var(--danger); }
.kind-takeover { color: var(--done); }
.notice { max-width: 560px; padding-top: 64px; }
@media (max-width: 720px) {
  .top { padding: 12px 16px; }
  main { padding: 12px 16px 32px; }
  .filters label, .filters select { width: 100%; }
  .table-wrap { border: 0; overflow: visible; }
  table.claims thead, table.repos thead { display: none; }
  table.claims, table.claims tbody, table.claims tr, table.claims td,
  table.repos, table.repos tbody, table.repos tr, table.repos td { display: block; width: 100%; }
  table.claims tr, table.repos tr { border: 1px solid var(--border); border-radius: 6px; margin-bottom: 12px; }
  td { border-top: 0; padding: 4px 12px; display: flex; gap: 8px; }
  td[data-label]::before { content: attr(data-label); flex: 0 0 110px; color: var(--muted); font-size: 12px; font-weight: 600; }
}
`;
