// The review of a finished game in the replay viewer (docs/analysis.md): the room's analysis,
// asked again while it runs, drawn as an evaluation graph with each mistake marked, the
// label of the move shown, its marker in the log and the better move as a ghost tile.

import { t } from './i18n.js';
import { h } from './ui.js';
import { playerBySeat } from './state.js';
import { $ } from './page.js';
import { entries, entryForStep, series, scale, stepOfMarked, markedMoves } from './review.js';
import { moveGhost } from './hint.js';

export class ReplayReview {
  /** `page`: the ReplayPage (its replay, step, source and tiles); `go(k)` shows step k. */
  constructor({ go, page }) {
    this.go = go;
    this.page = page;
    this.analysis = null; // GET /api/rooms/<id>/analysis of the room shown (review.js)
    this.timer = null;
    this.cursorX = null;
  }

  /** Another game: nothing to review until its analysis is asked for. */
  reset() {
    this.analysis = null;
    clearTimeout(this.timer);
    this.render();
  }

  /** Each move's label on its log lines, with a marker on the first line of a mistake or blunder. */
  markLog(log) {
    const a = this.analysis;
    if (!a || a.status !== 'done') return;
    const starts = this.page.replay.frames.map((f) => f.events.length); // move k's events: [starts[k], starts[k + 1])
    const byMove = new Map(entries(a).map((e) => [e.move, e]));
    const seen = new Set();
    for (const li of log.querySelectorAll('li[data-id]')) {
      const id = Number(li.dataset.id);
      let k = -1;
      for (let m = 0; m + 1 < starts.length; m++) {
        if (id >= starts[m] && id < starts[m + 1]) { k = m; break; }
      }
      const e = byMove.get(k);
      if (!e?.label) continue;
      li.dataset.review = e.label;
      const first = !seen.has(k);
      seen.add(k);
      if (!first || li.querySelector('.review-badge') || (e.label !== 'mistake' && e.label !== 'blunder')) continue;
      li.append(h('span', { class: `review-badge ${e.label}`, 'data-testid': 'review-badge', title: t(`review.label.${e.label}`), text: ` ⚠ ${t(`review.label.${e.label}`)}` }));
    }
  }

  /** The room's analysis; while it runs, says how long and asks again. */
  async load(room) {
    clearTimeout(this.timer);
    let analysis = null;
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/analysis`);
      analysis = res.ok ? await res.json() : null;
    } catch {
      analysis = null;
    }
    if (this.page.source?.kind !== 'room' || this.page.source.room !== room) return; // another game by now
    this.analysis = analysis;
    this.render();
    if (analysis?.status === 'done' && this.page.replay) this.page.render();
    if (analysis && analysis.status !== 'done') {
      const wait = Math.min(10, Math.max(2, Number(analysis.eta_seconds) || 5)) * 1000;
      this.timer = setTimeout(() => this.load(room), wait);
    }
  }

  /** The evaluation graph (done analyses) or how long it will take (running ones). */
  render() {
    const box = $('replay-review');
    if (!box) return;
    box.replaceChildren();
    const a = this.analysis;
    box.hidden = !a || !this.page.replay;
    if (box.hidden) return;
    if (a.status !== 'done') {
      box.append(h('p', { class: 'notice', 'data-testid': 'review-running', text: t(a.status === 'queued' ? 'review.queued' : 'review.running', { s: Number(a.eta_seconds) || 0 }) }));
      return;
    }
    const players = this.page.replay.players;
    const total = this.page.replay.steps;
    const data = series(a, players);
    const W = 600;
    const H = 90;
    const m = scale(data, total, W, H);
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'review-graph');
    svg.setAttribute('data-testid', 'review-graph');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('review.title'));
    const title = document.createElementNS(ns, 'title');
    title.textContent = t('review.title');
    svg.append(title);
    const zero = document.createElementNS(ns, 'line');
    for (const [k, v] of Object.entries({ x1: 0, x2: W, y1: m.y(0), y2: m.y(0), class: 'review-zero' })) zero.setAttribute(k, String(v));
    svg.append(zero);
    const frame = this.page.replay.frames[0];
    data.lines.forEach((line, seat) => {
      if (line.length === 0) return;
      const path = document.createElementNS(ns, 'polyline');
      path.setAttribute('points', line.map((p) => `${m.x(p.move).toFixed(1)},${m.y(p.value).toFixed(1)}`).join(' '));
      path.setAttribute('class', `review-line c-${playerBySeat(frame, seat)?.color ?? 'red'}`);
      path.setAttribute('data-seat', String(seat));
      svg.append(path);
    });
    for (const k of markedMoves(a)) {
      const e = entryForStep(a, k + 1);
      const dot = document.createElementNS(ns, 'circle');
      for (const [name, v] of Object.entries({ cx: m.x(k), cy: m.y(e.played_value ?? 0), r: 4, class: `review-mark ${e.label}`, 'data-move': k })) dot.setAttribute(name, String(v));
      svg.append(dot);
    }
    const cursor = document.createElementNS(ns, 'line');
    cursor.setAttribute('class', 'review-cursor');
    cursor.setAttribute('y1', '0');
    cursor.setAttribute('y2', String(H));
    svg.append(cursor);
    svg.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect();
      const x = ((ev.clientX - r.left) / Math.max(1, r.width)) * W;
      this.go(m.moveAt(x) + 1);
    });
    const prev = h('button', { type: 'button', class: 'btn', 'data-testid': 'review-prev', text: t('review.prev') });
    const next = h('button', { type: 'button', class: 'btn', 'data-testid': 'review-next', text: t('review.next') });
    prev.addEventListener('click', () => { const k = stepOfMarked(a, this.page.step, -1); if (k !== null) this.go(k); });
    next.addEventListener('click', () => { const k = stepOfMarked(a, this.page.step, 1); if (k !== null) this.go(k); });
    box.append(svg, h('div', { class: 'row review-row' }, prev, h('span', { class: 'review-label', 'data-testid': 'review-label', role: 'status' }), next));
    this.cursorX = m.x;
    this.renderStep();
  }

  /**
   * The better move of a move that gave points away, as a ghost tile with its figure beside
   * the move played (the board shows the step after it), or null.
   */
  betterMove(frame) {
    const e = this.analysis?.status === 'done' ? entryForStep(this.analysis, this.page.step) : null;
    if (!e || !e.best || e.label === 'best' || !Number.isInteger(e.best.x) || !Number.isInteger(e.best.y)) return null;
    const tile = this.page.step > 0 ? this.page.replay.frames[this.page.step - 1]?.turn?.tile : null;
    const def = tile ? this.page.tiles[tile] : null;
    if (!def) return null;
    const color = playerBySeat(frame, e.seat)?.color ?? 'red';
    return moveGhost(e.best, tile, def, color, t('review.better'));
  }

  /** The current move's label, and the graph's cursor on it. */
  renderStep() {
    const box = $('replay-review');
    if (!box || box.hidden || !this.analysis || this.analysis.status !== 'done') return;
    const cursor = box.querySelector('.review-cursor');
    if (cursor && this.cursorX) {
      const x = this.cursorX(Math.max(0, this.page.step - 1)).toFixed(1);
      cursor.setAttribute('x1', x);
      cursor.setAttribute('x2', x);
    }
    const label = box.querySelector('[data-testid="review-label"]');
    const e = entryForStep(this.analysis, this.page.step);
    if (!label) return;
    label.dataset.label = e?.label ?? '';
    if (!e || !e.label) {
      label.textContent = '';
    } else if (e.label === 'best' || !e.best) {
      label.textContent = t('review.move', { k: this.page.step, label: t(`review.label.${e.label}`) });
    } else {
      label.textContent = t('review.lost', { k: this.page.step, label: t(`review.label.${e.label}`), loss: e.loss, x: e.best.x, y: e.best.y });
    }
  }
}
