// The review of a finished game in the replay viewer (docs/analysis.md): the room's analysis,
// asked again while it runs, drawn as an evaluation graph (its axis and a legend of the
// players) with each mistake marked, the label of the move shown with the better move and
// why in points (why.js), its marker in the log, the better move as a ghost tile, and the
// board framing the two. N and P step through the viewer's own mistakes when the viewer
// played the game ("Only my moves" goes back to everybody's).

import { t, playerName } from '../i18n/i18n.js';
import { h, colorChip } from '../room/panels.js';
import { playerBySeat } from '../game/state.js';
import { $ } from '../pages/page.js';
import { local } from '../platform/storage.js';
import { knownGames } from '../home/games.js';
import { entries, entryForStep, series, scale, stepOfMarked, markedMoves, axisTicks, framedCells } from './review.js';
import { moveGhost } from '../turn/hint.js';
import { moveGains, reasonText } from '../turn/why.js';

const NS = 'http://www.w3.org/2000/svg';

function svgEl(name, attrs = {}, text = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

export class ReplayReview {
  /** `page`: the ReplayPage (its replay, step, source, board and tiles); `go(k)` shows step k. */
  constructor({ go, page }) {
    this.go = go;
    this.page = page;
    this.analysis = null; // GET /api/rooms/<id>/analysis of the room shown (review.js)
    this.timer = null;
    this.cursorX = null;
    this.mine = null; // the viewer's seat in the game shown, if this browser played it
    this.onlyMine = true;
  }

  /** Another game: nothing to review until its analysis is asked for. */
  reset() {
    this.analysis = null;
    this.mine = null;
    clearTimeout(this.timer);
    this.render();
  }

  /** The seat whose mistakes N and P go through: the viewer's, unless all are asked for. */
  get seat() {
    return this.onlyMine ? this.mine : null;
  }

  /** The next (1) or previous (-1) marked move of the viewer (or anybody's); false if none. */
  stepMarked(dir) {
    if (!this.analysis) return false;
    const k = stepOfMarked(this.analysis, this.page.step, dir, this.seat);
    if (k !== null) this.go(k);
    return true;
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
    this.mine = knownGames(local).find((g) => g.room === room)?.seat ?? null;
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
    const frame = this.page.replay.frames[0];
    const prev = h('button', { type: 'button', class: 'btn', 'data-testid': 'review-prev', text: t('review.prev'), onclick: () => this.stepMarked(-1) });
    const next = h('button', { type: 'button', class: 'btn', 'data-testid': 'review-next', text: t('review.next'), onclick: () => this.stepMarked(1) });
    let only = null;
    if (this.mine !== null && playerBySeat(frame, this.mine)) {
      const box2 = h('input', { type: 'checkbox', id: 'review-only-mine', 'data-testid': 'review-only-mine', checked: this.onlyMine });
      box2.addEventListener('change', () => { this.onlyMine = box2.checked; });
      only = h('label', { class: 'review-only', for: 'review-only-mine' }, box2, ' ', t('review.onlyMine'));
    }
    box.append(this.graph(a, frame, box.clientWidth), this.legend(frame),
      h('div', { class: 'row review-row' }, prev, h('span', { class: 'review-label', 'data-testid': 'review-label', role: 'status' }), next, only));
    this.renderStep();
  }

  /** The graph: a line per player, the marks, the cursor; its axis says what the values are. */
  graph(a, frame, width) {
    const players = this.page.replay.players;
    const total = this.page.replay.steps;
    const data = series(a, players);
    const W = Math.max(300, Math.round((width || 620) - 20)); // the box's own width: no stretched or squeezed text
    const H = 84;
    const LEFT = 34; // the axis's labels
    const m = scale(data, total, W, H, 8, LEFT);
    const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'review-graph', 'data-testid': 'review-graph', role: 'img', 'aria-label': t('review.title') });
    svg.append(svgEl('title', {}, t('review.title')));
    svg.append(svgEl('line', { x1: LEFT, x2: W, y1: m.y(0), y2: m.y(0), class: 'review-zero' }));
    svg.append(svgEl('line', { x1: LEFT - 2, x2: LEFT - 2, y1: 4, y2: H - 4, class: 'review-axis' }));
    for (const tick of axisTicks(data)) {
      svg.append(svgEl('text', { x: LEFT - 5, y: m.y(tick.value), class: 'review-tick', 'data-testid': 'review-tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, tick.label));
    }
    data.lines.forEach((line, seat) => {
      if (line.length === 0) return;
      svg.append(svgEl('polyline', {
        points: line.map((p) => `${m.x(p.move).toFixed(1)},${m.y(p.value).toFixed(1)}`).join(' '),
        class: `review-line c-${playerBySeat(frame, seat)?.color ?? 'red'}${seat === this.mine ? ' mine' : ''}`, 'data-seat': seat,
      }));
    });
    for (const k of markedMoves(a)) {
      const e = entryForStep(a, k + 1);
      svg.append(svgEl('circle', { cx: m.x(k), cy: m.y(e.played_value ?? 0), r: 4, class: `review-mark ${e.label}`, 'data-move': k, 'data-seat': e.seat }));
    }
    const cursor = svgEl('line', { class: 'review-cursor', y1: 0, y2: H });
    svg.append(cursor);
    svg.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect();
      const x = ((ev.clientX - r.left) / Math.max(1, r.width)) * W;
      this.go(m.moveAt(x) + 1);
    });
    this.cursorX = m.x;
    return svg;
  }

  /** Who each line is, and what the graph measures. */
  legend(frame) {
    const items = (frame.players ?? []).map((p) => h('li', { 'data-seat': p.seat }, colorChip(p.color), h('span', { class: 'pname', text: playerName(p) })));
    return h('div', { class: 'review-legend', 'data-testid': 'review-legend' },
      h('span', { class: 'muted review-axis-name', text: t('review.axis') }),
      h('ul', { class: 'chart-legend' }, ...items));
  }

  /** The entry of the step shown when it has a better move to show, else null. */
  discussed() {
    const e = this.analysis?.status === 'done' ? entryForStep(this.analysis, this.page.step) : null;
    return e && e.best && e.label !== 'best' && Number.isInteger(e.best.x) && Number.isInteger(e.best.y) ? e : null;
  }

  /** The tile of record move k - 1 and the board it was played on. */
  moveAt(step) {
    const before = step > 0 ? this.page.replay.frames[step - 1] : null;
    const after = this.page.replay.frames[step];
    const tile = before?.turn?.tile ?? null;
    const played = after && before && after.board.length > before.board.length ? after.board.at(-1) : null;
    return { before, tile, played };
  }

  /**
   * The better move of a move that gave points away, as a ghost tile with its figure beside
   * the move played (the board shows the step after it), or null.
   */
  betterMove(frame) {
    const e = this.discussed();
    const { tile } = this.moveAt(this.page.step);
    const def = tile ? this.page.tiles[tile] : null;
    if (!e || !def) return null;
    const color = playerBySeat(frame, e.seat)?.color ?? 'red';
    return moveGhost(e.best, tile, def, color, t('review.better'));
  }

  /** After the board was drawn: a discussed move is framed with its better one, else the whole board. */
  frame() {
    const board = this.page.board;
    const e = this.discussed();
    if (!e) return board.unframe();
    const cells = framedCells(e, this.moveAt(this.page.step).played);
    if (cells.length) board.frameCells(cells);
  }

  /** Why the better move, in words, from the board before the move. */
  why(e) {
    const { before, tile } = this.moveAt(this.page.step);
    if (!before || !tile) return '';
    const names = (seats) => seats.map((s) => playerName(playerBySeat(before, s)));
    return reasonText(moveGains(before, this.page.tiles, tile, e.best, e.seat), names);
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
    const name = e ? playerName(playerBySeat(this.page.replay.frames[0], e.seat)) : '';
    if (!e || !e.label) {
      label.textContent = '';
    } else if (!this.discussed()) {
      label.textContent = t('review.move', { k: this.page.step, label: t(`review.label.${e.label}`), name });
    } else {
      const loss = Math.round((Number(e.loss) || 0) * 10) / 10;
      label.textContent = t('review.lostWhy', { k: this.page.step, label: t(`review.label.${e.label}`), name, loss, why: this.why(e) || t('why.quiet') });
    }
  }
}
