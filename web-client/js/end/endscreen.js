// The end screen: the winners, each player's points by kind (during the game + at the final
// scoring), and the score-over-time chart. Names are user text: textContent only.

import { t } from '../i18n/i18n.js';
import { playerColor } from '../tiles/tileart.js';
import { scoreSeries, chartLayout } from './chart.js';
import { h, colorChip, nameSpan, namesSpan } from '../platform/dom.js';
import { playerBySeat } from '../game/state.js';
import { breakdownKinds, expansionLabels, splitText, cellParts, onePart } from './breakdown.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgEl(name, attrs = {}, text) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// A phone shows no header row: each cell carries its column's name (.klabel).
function cell(row, kind, label) {
  const { during, final } = cellParts(row, kind);
  return h('td', { class: `k k-${kind}`, 'data-label': label, 'data-kind': kind },
    h('span', { class: 'klabel', 'aria-hidden': 'true', text: label }),
    h('span', { class: 'sum', text: String(during + final) }),
    onePart(kind) ? null : h('span', { class: 'split', text: splitText(during, final) }));
}

function renderTable(table, state, mySeat) {
  const result = state.result;
  const labels = { road: t('end.roads'), city: t('end.cities'), monastery: t('end.monasteries'), field: t('end.fields'), ...expansionLabels() };
  const KINDS = breakdownKinds(result.breakdown);
  // Hints asked: a column while the room had them on or anyone asked one.
  const hints = !!state.settings?.hints || (state.players ?? []).some((p) => (p.hints ?? 0) > 0);
  table.replaceChildren(h('thead', {}, h('tr', {},
    h('th', { class: 'who', scope: 'col', text: t('end.player') }),
    ...KINDS.map((k) => h('th', { scope: 'col', class: `k k-${k}`, text: labels[k] })),
    h('th', { class: 'total', scope: 'col', text: t('end.total') }),
    hints ? h('th', { class: 'hints', scope: 'col', text: t('end.hints') }) : null)));
  const body = h('tbody');
  const rows = [...(result.breakdown ?? [])].sort((a, b) => b.total - a.total);
  rows.forEach((row, rank) => {
    const p = playerBySeat(state, row.seat);
    const win = (result.winners ?? []).includes(row.seat);
    // On a phone the cells flow in rows of four under the name once there are more than four.
    const rowsOf4 = KINDS.length + (hints ? 1 : 0) > 4;
    body.appendChild(h('tr', { class: `${win ? 'winner' : ''}${row.seat === mySeat ? ' me' : ''}${KINDS.length > 6 ? ' many-kinds' : ''}${rowsOf4 ? ' rows-of-4' : ''}`.trim() || null, 'data-seat': row.seat, 'data-total': row.total },
      h('th', { class: 'who', scope: 'row' },
        h('span', { class: 'rank', text: `${rank + 1}.` }),
        p ? colorChip(p.color) : null, nameSpan(p), win ? h('span', { class: 'trophy', 'aria-hidden': 'true', text: '★' }) : null),
      ...KINDS.map((k) => cell(row, k, labels[k])),
      h('td', { class: 'total', 'data-label': t('end.total'), text: String(row.total) }),
      hints ? h('td', { class: 'hints', 'data-label': t('end.hints') },
        h('span', { class: 'klabel', 'aria-hidden': 'true', text: t('end.hints') }), h('span', { class: 'sum', 'data-testid': 'end-hints', text: String(p?.hints ?? 0) })) : null));
  });
  table.append(body);
}

/** Draws the chart in the figure at its current width. */
export function drawChart(figure, state) {
  const players = state.players ?? [];
  const series = scoreSeries(state.events, players.map((p) => p.seat));
  const w = Math.max(240, Math.round(figure.clientWidth || 600));
  const h2 = Math.round(Math.min(220, Math.max(140, w * 0.36)));
  const L = chartLayout(series, { w, h: h2 });
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h2}`, width: w, height: h2, class: 'chart', 'data-testid': 'score-chart', role: 'img', 'aria-label': t('end.chart') });
  svg.appendChild(svgEl('rect', { class: 'final-band', x: L.finalBand.x, y: L.plot.y, width: Math.max(1, L.finalBand.w), height: L.plot.h }));
  for (const tk of L.yTicks) {
    svg.appendChild(svgEl('line', { class: 'grid', x1: L.plot.x, x2: L.plot.x + L.plot.w, y1: tk.y, y2: tk.y }));
    svg.appendChild(svgEl('text', { class: 'tick', x: L.plot.x - 5, y: tk.y + 4, 'text-anchor': 'end' }, String(tk.v)));
  }
  for (const tk of L.xTicks) {
    svg.appendChild(svgEl('text', { class: 'tick', x: tk.x, y: L.plot.y + L.plot.h + 15, 'text-anchor': 'middle' }, String(tk.m)));
  }
  svg.appendChild(svgEl('text', { class: 'tick final-label', x: L.finalBand.x + L.finalBand.w / 2, y: L.plot.y + L.plot.h + 15, 'text-anchor': 'middle' }, '★'));
  for (const line of L.lines) {
    const p = playerBySeat(state, line.seat);
    const c = playerColor(p?.color);
    const g = svgEl('g', { class: 'series', 'data-seat': line.seat, 'data-testid': 'chart-line', 'data-final': line.end.score });
    g.appendChild(svgEl('path', { class: 'halo', d: line.d }));
    g.appendChild(svgEl('path', { class: 'line', d: line.d, stroke: c.fill }));
    for (const d of line.dots) {
      const dot = svgEl('circle', { class: `step${d.end ? ' end' : ''}`, cx: d.x.toFixed(1), cy: d.y.toFixed(1), r: 3.2, fill: c.fill, 'data-testid': 'chart-step' });
      dot.appendChild(svgEl('title', {}, `${t(`feature.${d.kind}`)} +${d.points}`));
      g.appendChild(dot);
    }
    svg.appendChild(g);
  }
  for (const lb of L.labels) {
    const c = playerColor(playerBySeat(state, lb.seat)?.color);
    svg.appendChild(svgEl('text', { class: 'end-score', x: lb.x, y: lb.y.toFixed(1), fill: c.fill === '#F0E442' ? '#6b6200' : c.fill }, String(lb.score)));
  }
  const legend = h('ul', { class: 'chart-legend' }, ...players.map((p) => h('li', {}, colorChip(p.color), nameSpan(p))));
  figure.replaceChildren(
    h('figcaption', { class: 'chart-title', text: t('end.chart') }),
    svg,
    legend,
    h('p', { class: 'chart-note muted', text: t('end.chartNote') }));
}

/**
 * A table its tournament settled at the round's deadline (docs/tournaments.md#rounds): why
 * the game ended, who lost on time, and that the scores so far are the result.
 */
function renderSettled(note, state) {
  if (!note) return;
  const settled = state.result?.settled;
  note.hidden = !settled;
  if (!settled) return note.replaceChildren();
  const loser = Number.isInteger(settled.seat) ? playerBySeat(state, settled.seat) : null;
  if (!loser) return note.replaceChildren(t('tour.settled.noteNoSeat'));
  const parts = t('tour.settled.note', { name: '\u0000' }).split('\u0000');
  note.replaceChildren(parts[0], nameSpan(loser), parts[1] ?? '');
}

export function renderEnd(modal, state, mySeat) {
  const result = state.result;
  if (!result) return;
  const winnersEl = modal.querySelector('#end-winners');
  const winners = (result.winners ?? []).map((s) => playerBySeat(state, s)).filter(Boolean);
  const key = winners.length > 1 ? 'end.winners' : 'end.winner';
  const parts = t(key, { names: '\u0000' }).split('\u0000');
  const names = namesSpan(winners);
  winnersEl.replaceChildren(h('span', { class: 'trophy', 'aria-hidden': 'true', text: '★' }), ' ', parts[0], names, parts[1] ?? '');
  renderSettled(modal.querySelector('#end-settled'), state);
  renderTable(modal.querySelector('#end-table'), state, mySeat);
  const figure = modal.querySelector('#end-chart');
  if (figure) {
    drawChart(figure, state);
    // Redrawn at the new width when the window changes (text in the chart keeps its size).
    if (!figure.chartObserver && typeof ResizeObserver === 'function') {
      let lastW = figure.clientWidth;
      figure.chartObserver = new ResizeObserver(() => {
        if (Math.abs(figure.clientWidth - lastW) < 2 || !figure.chartState) return;
        lastW = figure.clientWidth;
        drawChart(figure, figure.chartState);
      });
      figure.chartObserver.observe(figure);
    }
    figure.chartState = state;
  }
}
