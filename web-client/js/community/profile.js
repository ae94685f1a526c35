// A player's page, /p/<player> (docs/community.md, "The pages"): its name, each pace's rating
// with a chart over time (SVG, with its text alternative), its recent games with links to
// their replay and review, win rate and average score by expansion set, points by kind, and
// the analysis's average loss per move. Reads GET /api/players/<id>. Names are user text:
// textContent only.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { replayPath } from '../pages/routes.js';
import { expansionLabels } from '../end/breakdown.js';
import { ratingChart } from './ratingchart.js';
import { ratingText, changeText, numberText, percentText, dateText, setText, paceText, PLAYER_ID } from './format.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
function svgEl(name, attrs = {}, text) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// A table named by its section's heading (`headingId`).
const table = (testid, headingId, heads, rows) => h('div', { class: 'table-wrap' }, h('table', { class: 'community-table', 'data-testid': testid, 'aria-labelledby': headingId },
  h('thead', {}, h('tr', {}, ...heads.map(([text, num]) => h('th', { scope: 'col', class: num ? 'num' : null, text })))),
  h('tbody', {}, ...rows)));

export class ProfilePage {
  constructor(root, player) {
    this.root = root;
    this.player = player;
    this.body = null;
    this.status = 0;
  }

  async enter() {
    if (!PLAYER_ID.test(this.player)) {
      this.status = 400;
      return this.render();
    }
    try {
      const res = await fetch(`/api/players/${encodeURIComponent(this.player)}`);
      this.status = res.status;
      this.body = res.ok ? await res.json() : null;
    } catch {
      this.status = 0;
    }
    this.render();
  }

  relabel() {
    this.render();
  }

  render() {
    const b = this.body;
    if (!b) {
      const key = this.status === 404 ? 'rank.notFound' : this.status === 400 ? 'rank.badPlayer' : 'rank.failed';
      this.root.replaceChildren(h('section', { class: 'community-card' }, h('h1', { text: t('rank.player') }),
        h('p', { class: this.status === 404 ? 'muted' : 'form-error', 'data-testid': 'profile-missing', text: t(key) })));
      return;
    }
    const name = String(b.name ?? b.player);
    document.title = `${name} · ${t('app.title')}`;
    const paces = ['live', 'turn-based'].filter((p) => b.ratings?.[p]);
    this.root.replaceChildren(h('section', { class: 'community-card', 'data-testid': 'player-page' },
      h('h1', { 'data-testid': 'player-name', text: name }),
      ...paces.map((p) => this.paceSection(p, b.ratings[p])),
      this.recentSection(b.recent ?? []),
      this.statsSections(b.stats)));
  }

  paceSection(pace, r) {
    const figure = h('figure', { class: 'rating-chart' });
    // Drawn at the page's width, so that its text keeps its size on a phone.
    const w = Math.round(Math.max(280, Math.min(800, (this.root.clientWidth || 640) - 48)));
    const L = ratingChart(r.history, { w, h: 200 });
    const alt = t('rank.chartAlt', { pace: paceText(pace), n: L.dots.length, first: ratingText(L.first), last: ratingText(L.last), max: ratingText(L.max), min: ratingText(L.min) });
    const svg = svgEl('svg', { viewBox: `0 0 ${w} 200`, width: w, height: 200, class: 'chart', role: 'img', 'aria-label': alt, 'data-testid': `rating-chart-${pace}`, preserveAspectRatio: 'xMidYMid meet' });
    svg.append(svgEl('title', {}, alt));
    for (const tk of L.yTicks) {
      svg.append(svgEl('line', { class: 'grid', x1: L.plot.x, x2: L.plot.x + L.plot.w, y1: tk.y.toFixed(1), y2: tk.y.toFixed(1) }));
      svg.append(svgEl('text', { class: 'tick', x: L.plot.x - 5, y: (tk.y + 4).toFixed(1), 'text-anchor': 'end' }, numberText(tk.v, 0)));
    }
    if (L.d) svg.append(svgEl('path', { class: 'line rating-line', d: L.d }));
    for (const d of L.dots) svg.append(svgEl('circle', { class: 'step', cx: d.x.toFixed(1), cy: d.y.toFixed(1), r: 3.5, 'data-testid': 'rating-dot' }));
    figure.append(h('figcaption', { text: t('rank.chart') }), svg);
    return h('section', { class: 'pace-rating', 'data-testid': `player-rating-${pace}` },
      h('h2', { text: paceText(pace) }),
      h('p', { class: 'rating-large' },
        h('strong', { 'data-testid': 'player-rating', text: ratingText(r.rating) }),
        ` · ${t('rank.games')}: `, h('span', { 'data-testid': 'player-games', text: String(r.games) }),
        r.provisional ? h('span', { class: 'muted', text: ` (${t('rank.provisional')})` }) : null),
      figure);
  }

  recentSection(recent) {
    const rows = recent.map((g) => h('tr', { 'data-testid': 'recent-game', 'data-room': g.room },
      h('td', { text: dateText(g.at) }),
      h('td', { text: paceText(g.pace) }),
      h('td', { text: setText(g.expansions) }),
      h('td', { class: 'num', 'data-testid': 'recent-place', text: g.players ? `${g.place}/${g.players}` : String(g.place) }),
      h('td', { class: 'num', text: g.score === null || g.score === undefined ? '' : String(g.score) }),
      h('td', { class: 'num', 'data-testid': 'recent-change', text: Number.isFinite(g.after) ? `${changeText(g.after - g.before)} → ${ratingText(g.after)}` : '' }),
      h('td', { class: 'links' },
        h('a', { href: replayPath(g.room), 'data-testid': 'recent-replay', text: t('rank.replay') }),
        g.analysed ? [' · ', h('a', { href: `${replayPath(g.room)}#review`, 'data-testid': 'recent-review', text: t('rank.review') })] : null)));
    return h('section', {}, h('h2', { id: 'recent-title', text: t('rank.recent') }),
      table('recent-games', 'recent-title', [[t('rank.when')], [t('rank.pace')], [t('rank.set')], [t('rank.place'), 1], [t('rank.score'), 1], [t('rank.change'), 1], [t('rank.watch')]], rows));
  }

  statsSections(stats) {
    if (!stats) return null;
    const labels = { road: t('end.roads'), city: t('end.cities'), monastery: t('end.monasteries'), field: t('end.fields'), ...expansionLabels() };
    const sets = (stats.sets ?? []).map((s) => h('tr', { 'data-testid': 'set-row', 'data-set': s.expansions },
      h('th', { scope: 'row', text: setText(s.expansions) }),
      h('td', { class: 'num', text: String(s.games) }),
      h('td', { class: 'num', text: String(s.wins) }),
      h('td', { class: 'num', 'data-testid': 'set-win-rate', text: percentText(s.win_rate) }),
      h('td', { class: 'num', 'data-testid': 'set-average', text: numberText(s.average_score) })));
    const points = (stats.points ?? []).map((p) => h('tr', { 'data-testid': 'kind-row', 'data-kind': p.kind },
      h('th', { scope: 'row', text: labels[p.kind] ?? p.kind }),
      h('td', { class: 'num', text: String(p.total) }),
      h('td', { class: 'num', 'data-testid': 'kind-per-game', text: numberText(p.per_game) })));
    const a = stats.analysis;
    return [
      h('section', {}, h('h2', { id: 'sets-title', text: t('rank.bySet') }),
        table('set-stats', 'sets-title', [[t('rank.set')], [t('rank.games'), 1], [t('rank.wins'), 1], [t('rank.winRate'), 1], [t('rank.avgScore'), 1]], sets)),
      points.length ? h('section', {}, h('h2', { id: 'points-title', text: t('rank.points') }),
        table('kind-stats', 'points-title', [[t('rank.kind')], [t('rank.total'), 1], [t('rank.perGame'), 1]], points)) : null,
      h('section', {}, h('h2', { text: t('rank.analysis') }),
        h('p', { 'data-testid': 'avg-loss', text: a?.average_loss === null || a?.average_loss === undefined ? t('rank.noAnalysis')
          : t('rank.avgLoss', { loss: numberText(a.average_loss, 2), moves: a.moves, games: a.games }) })),
    ];
  }
}
