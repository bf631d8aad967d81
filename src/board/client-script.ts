import { CLAIM_COLUMNS } from './render-page.js';

/** How often the page refreshes itself from data.json (docs/protocol.md §14). */
const REFRESH_MS = 15_000;

/**
 * The board's script, served at `/claims/assets/board.js`: no build step, no framework. Every
 * REFRESH_MS, and at once when a filter changes, it fetches data.json with the filters and
 * rebuilds the tables with DOM calls (textContent, never innerHTML: titles are user text).
 * Without it the page still works: it was rendered whole, and the filter form submits.
 * Plain ES2017, written out as text so it ships as it is.
 */
export const CLIENT_SCRIPT = `'use strict';
(function () {
  var COLUMNS = ${JSON.stringify(CLAIM_COLUMNS)};
  var WORDS = { expiry: 'expired', loss: 'lost the race', takeover: 'taken over' };
  var form = document.getElementById('filters');
  var status = document.getElementById('status');
  if (!form || !status) return;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }
  function safe(url) { return /^https?:\\/\\//.test(url) ? url : '#'; }
  function dur(ms) {
    var m = Math.floor(Math.max(0, ms) / 60000);
    if (m < 1) return 'just now';
    if (m < 60) return m + ' min';
    var h = Math.floor(m / 60);
    if (h < 24) return m % 60 ? h + ' h ' + (m % 60) + ' min' : h + ' h';
    var d = Math.floor(h / 24);
    return h % 24 ? d + ' d ' + (h % 24) + ' h' : d + ' d';
  }
  function ago(ms) { return ms < 60000 ? 'just now' : dur(ms) + ' ago'; }
  function time(iso, text) {
    return el('time', { datetime: iso, title: iso.slice(0, 19).replace('T', ' ') + ' UTC' }, [text]);
  }
  function avatar(url) {
    return /^https?:\\/\\//.test(url)
      ? el('img', { class: 'avatar', src: url, alt: '', width: '20', height: '20' })
      : document.createTextNode('');
  }
  function code(text) { return el('code', {}, [text]); }
  function pathCode(path) {
    var parts = [];
    path.split('/').forEach(function (name, i) { if (i) parts.push('/', el('wbr')); parts.push(el('span', {}, [name])); });
    return el('code', { class: 'path' }, parts);
  }
  function stageClass(s) { return s.indexOf('fix-round-') === 0 ? 'fix-round' : s; }

  function none() { return el('span', { class: 'muted' }, ['\\u2014']); }
  function person() { return el('span', { class: 'badge badge-person' }, ['person']); }
  function reviewTitle(w) {
    if (!w) return 'marked for review; the work is not known here';
    return w.aheadBy + ' commit' + (w.aheadBy === 1 ? '' : 's') + ' on ' + w.branch + ' (' + w.head + ')' +
      (w.pull === null ? '' : ' and pull request #' + w.pull) + ' await review';
  }
  function review(w) { return el('span', { class: 'badge badge-review', title: reviewTitle(w) }, ['needs review']); }
  function hosted(name) { return el('span', { class: 'badge badge-hosted', title: 'hosted agent' }, [name.replace(/\\[bot\\]$/i, '')]); }
  function staleBar(hb, stale, now) {
    var win = Math.max(1, stale - hb), left = Math.max(0, stale - now);
    return [el('meter', { min: '0', max: String(win), low: String(Math.round(win / 4)), high: String(Math.round(win / 2)), optimum: String(win), value: String(left) }, [Math.round((100 * left) / win) + '%']), ' ', el('span', {}, [dur(left) + ' left'])];
  }
  function claimRow(c, now) {
    var hb = Date.parse(c.heartbeat);
    var paths = c.paths.length ? [] : [none()];
    c.paths.forEach(function (p, i) { if (i) paths.push(' '); paths.push(pathCode(p)); });
    var awaiting = c.kind === 'review';
    var holder = !awaiting || c.holder ? [avatar(c.avatarUrl), el('a', { href: safe(c.commentUrl) }, [c.holder])] : [none()];
    if (c.kind === 'person') holder.push(' ', person());
    if (c.kind === 'hosted') holder.push(' ', hosted(c.holder));
    if (c.review !== undefined) holder.push(' ', review(c.review));
    var cells = [
      [c.repo],
      [el('a', { href: safe(c.url) }, [c.title || '#' + c.number]), ' ', el('span', { class: 'muted' }, ['#' + c.number])],
      holder,
      [c.session === null ? none() : code(c.session)],
      [c.branch === null ? none() : el('code', { class: 'branch', title: c.branch }, [c.branch])],
      [el('span', { class: 'stage stage-' + stageClass(c.stage) }, [c.stage])],
      paths,
      [awaiting ? none() : time(c.started, ago(now - Date.parse(c.started)))],
      [awaiting ? none() : time(c.heartbeat, ago(now - hb))],
      awaiting ? [el('span', { class: 'muted' }, ['awaiting review'])]
        : c.staleAt === null ? [el('span', { class: 'muted' }, ['does not expire'])] : staleBar(hb, Date.parse(c.staleAt), now),
    ];
    return el('tr', c.kind === 'person' || awaiting ? { class: c.kind } : {}, cells.map(function (cell, i) { return el('td', { 'data-label': COLUMNS[i] }, cell); }));
  }
  function changeItem(c, now) {
    var parts = [el('span', { class: 'kind kind-' + c.kind }, [WORDS[c.kind] || c.kind]), ' ',
      el('strong', {}, [c.author]), ' (', code(c.session), ') on ',
      el('a', { href: safe(c.url) }, [c.repo + '#' + c.number]), ' ' + c.title];
    if (c.by && c.kind !== 'expiry') {
      parts.push(c.kind === 'loss' ? ' to ' : ' by ', el('strong', {}, [c.by.login]));
      if (c.by.session === undefined) parts.push(' ', person());
      else parts.push(' (', code(c.by.session), ')');
    }
    parts.push(' \\u00b7 ', time(c.at, ago(now - Date.parse(c.at))));
    return el('li', {}, parts);
  }
  function fill(id, nodes, empty) {
    var target = document.getElementById(id);
    if (!target) return;
    target.replaceChildren.apply(target, nodes.length ? nodes : [empty]);
  }
  function options(name, values, chosen, all) {
    var select = document.getElementById('f-' + name);
    if (!select) return;
    var list = values.slice();
    if (chosen && list.indexOf(chosen) < 0) list.push(chosen);
    var opts = [el('option', { value: '' }, [all])].concat(list.map(function (v) {
      var o = el('option', { value: v }, [v]);
      if (v === chosen) o.selected = true;
      return o;
    }));
    select.replaceChildren.apply(select, opts);
  }
  function render(view) {
    var now = Date.parse(view.generatedAt);
    fill('claim-rows', view.claims.map(function (c) { return claimRow(c, now); }),
      el('tr', {}, [el('td', { colspan: String(COLUMNS.length), class: 'muted' }, ['No live claims match.'])]));
    fill('repo-rows', view.repos.map(function (r) {
      return el('tr', {}, [el('td', { 'data-label': 'Repository' }, [r.repo]), el('td', { 'data-label': 'Live claims' }, [String(r.live)]),
        el('td', { 'data-label': 'Claimable' }, [r.claimable === null ? el('span', { class: 'muted' }, ['unknown']) : String(r.claimable)])]);
    }), document.createTextNode(''));
    fill('changes', view.changes.map(function (c) { return changeItem(c, now); }),
      el('li', { class: 'muted' }, ['No expiries, losses or takeovers.']));
    options('repo', view.options.repos, view.filters.repo, 'All repositories');
    options('stage', view.options.stages, view.filters.stage, 'All stages');
    options('holder', view.options.holders, view.filters.holder, 'All holders');
    var n = view.claims.filter(function (c) { return c.kind !== 'review'; }).length;
    var reviewing = view.claims.length - n;
    status.replaceChildren(n + ' live ' + (n === 1 ? 'claim' : 'claims') + (reviewing ? ' \\u00b7 ' + reviewing + ' in review' : '') + ' \\u00b7 updated ',
      el('time', { datetime: view.generatedAt }, [view.generatedAt.slice(11, 19) + ' UTC']));
  }
  function query() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (v, k) { if (v) params.set(k, String(v)); });
    return params.toString();
  }
  function refresh() {
    fetch('claims/data.json' + (query() ? '?' + query() : ''), { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (r) {
        // Signed out or expired: the page itself shows the sign-in.
        if (r.status === 401) { location.reload(); return null; }
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      })
      .then(function (view) { if (view) render(view); })
      .catch(function () { status.textContent = 'Could not refresh; trying again in 15 s.'; });
  }
  form.addEventListener('change', function () {
    history.replaceState(null, '', query() ? '?' + query() : location.pathname);
    refresh();
  });
  setInterval(refresh, ${REFRESH_MS});
})();
`;
