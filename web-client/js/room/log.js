// The game log: narrate.js's lines in the page's language, and the link from a line to
// its cells on the board (hover, click, tap, Enter).

import { t, getLanguage } from '../i18n/i18n.js';
import { h, tileIcon, nameSpan, namesSpan } from '../platform/dom.js';
import { playerBySeat } from '../game/state.js';
import { narrate } from '../game/narrate.js';
import { ask, hooks, listed, figureById, likeMonastery } from '../expansions/registry.js';

function featureLabel(kind) {
  return t(`feature.${kind}`);
}

const count = (key, n) => t(key, { n });

/** Fills a translated text into `li`, with {name}-like params given as elements. */
function fill(li, key, params, nameParams = {}) {
  const marks = Object.fromEntries(Object.keys(nameParams).map((k) => [k, `\u0000${k}\u0000`]));
  for (const part of t(key, { ...params, ...marks }).split('\u0000')) {
    if (nameParams[part]) li.appendChild(nameParams[part]);
    else if (part) li.appendChild(document.createTextNode(part));
  }
}

function namesOf(state, seats) {
  return namesSpan(seats.map((s) => playerBySeat(state, s)));
}

function featureDetail(line) {
  const details = [];
  if (line.kind === 'field') details.push(count('ev.detailCities', line.cities ?? 0));
  else if (!likeMonastery(line.kind)) details.push(count('ev.detailTiles', line.tiles ?? 0));
  if (line.pennants) details.push(count('ev.detailPennants', line.pennants));
  return featureLabel(line.kind) + (details.length ? ` (${details.join(', ')})` : '');
}

const EVENT_OF = { closed: 'scored', final: 'scored' };
const eventOf = (type) => EVENT_OF[type] ?? Object.assign({}, ...listed('lineEvents'))[type] ?? type;
/** An expansion's words for a line (expansions/registry.js: logLine); false when none has any. */
const expansionLogLine = (li, line, helpers) => hooks('logLine').some((f) => f(li, line, helpers));

/** One log line (see narrate.js), built from text nodes and name spans. */
export function logLine(line, state, tiles) {
  const li = h('li', { class: `ev ev-${line.type}`, 'data-event': eventOf(line.type), 'data-line': line.type, 'data-id': line.id });
  if (line.cells?.length) {
    li.dataset.cells = JSON.stringify(line.cells);
    li.classList.add('linked');
    li.tabIndex = -1; // the log is one tab stop: arrows move between its lines (bindLog)
  }
  const who = (seat) => nameSpan(playerBySeat(state, seat));
  const helpers = { fill, who, namesOf: (seats) => namesOf(state, seats) };
  if (line.type !== 'placed' && expansionLogLine(li, line, helpers)) return li; // an expansion's own line
  switch (line.type) {
    case 'started':
      fill(li, 'ev.started', {});
      break;
    case 'placed': {
      li.appendChild(tileIcon(tiles[line.tile], line.rotation, 'tile-icon inline'));
      const f = line.feature;
      const size = f ? count('ev.detailTiles', f.tiles) : '';
      const figure = line.what === 'claimed' ? figureById(line.figure) : null; // a special figure claimed it
      if (figure?.logClaim) figure.logClaim(li, line, helpers);
      else if (figure) fill(li, 'log.claimFigure', { figure: t(`figure.${line.figure}`), feature: t(`feature.${f.kind}`) }, { name: who(line.seat) });
      else if (line.what === 'claimed') fill(li, `log.claim.${f.kind}`, { tiles: size }, { name: who(line.seat) });
      else if (line.what === 'extended') fill(li, `log.extend.${f.kind}`, { tiles: size }, { name: who(line.seat) });
      else if (line.what === 'extendedOther') fill(li, `log.extendOther.${f.kind}`, { tiles: size }, { name: who(line.seat), owner: namesOf(state, line.owners) });
      else if (line.what === 'extendedFree') fill(li, `log.extendFree.${f.kind}`, { tiles: size }, { name: who(line.seat) });
      else fill(li, 'log.placed', {}, { name: who(line.seat) });
      if (line.extra) li.append(` ${t('log.extraTile')}`);
      const note = ask('placedNote', line); // an expansion's words on the placement (expansions/registry.js)
      if (note) li.append(` ${note}`);
      break;
    }
    case 'discarded':
      li.appendChild(tileIcon(tiles[line.tile], 0, 'tile-icon inline'));
      fill(li, 'ev.discarded', { tile: line.tile }, { name: who(line.seat) });
      break;
    case 'closed': {
      const size = count('ev.detailTiles', line.tiles);
      const params = { tiles: size, points: line.points };
      const seats = line.seats ?? [];
      if (line.placer === null || line.placer === undefined) fill(li, 'log.completed', { ...params, feature: featureDetail(line) }, { names: namesOf(state, seats) });
      else if (!seats.length) fill(li, `log.closedNobody.${line.kind}`, params, { name: who(line.placer) });
      else if (seats.length === 1 && seats[0] === line.placer) fill(li, `log.closed.${line.kind}`, params, { name: who(line.placer) });
      else fill(li, `log.closedFor.${line.kind}`, params, { name: who(line.placer), names: namesOf(state, seats) });
      li.classList.add('scored');
      break;
    }
    case 'final':
      fill(li, 'ev.scoredEnd', { points: line.points, feature: featureDetail(line) }, { names: namesOf(state, line.seats) });
      li.classList.add('scored');
      break;
    case 'game_over':
      fill(li, 'ev.gameOver', {});
      break;
    default:
      li.appendChild(document.createTextNode(line.type));
  }
  return li;
}

/** The log's lines for a state, narrated once per new event. */
function narrated(ol, state, tiles) {
  const events = state.events ?? [];
  const key = `${events.length}:${events.at(-1)?.id ?? ''}:${state.board?.[0]?.tile ?? ''}`;
  if (ol.narrated?.key !== key) {
    let lines;
    try {
      lines = narrate(events, tiles, state.board?.[0]).lines;
    } catch {
      // A board this client cannot follow (an unknown tile): one plain line per event.
      lines = events.map((ev) => ({ type: ev.type === 'placed' ? 'placed' : ev.type, id: ev.id, seat: ev.seat, tile: ev.tile, rotation: ev.rotation ?? 0, what: 'plain', cells: [] }));
    }
    ol.narrated = { key, lines };
  }
  return ol.narrated.lines;
}

const lineOf = (line, state, tiles, autoIds) => {
  try {
    const li = logLine(line, state, tiles);
    // Said as the computer's move, not the player's own.
    if (autoIds?.has(line.id) && (line.type === 'placed' || line.type === 'discarded')) {
      li.append(' ', h('span', { class: 'muted auto-move', 'data-testid': 'auto-move', text: t('replay.auto') }));
    }
    return li;
  } catch {
    return h('li', { class: 'ev', text: String(line?.type ?? '?') }); // a line this client cannot word
  }
};

/**
 * Draws the log. New lines are appended to those already drawn (same language, same
 * names), so a line with the keyboard focus or a selection stays where it is.
 */
export function renderLog(ol, state, tiles, { autoIds = null } = {}) {
  followBottom(ol);
  const lines = narrated(ol, state, tiles);
  const words = JSON.stringify([getLanguage(), (state.players ?? []).map((p) => [p.seat, p.name, p.color, p.bot])]);
  const drawn = ol.drawn;
  const extends_ = drawn && drawn.words === words && drawn.ids.length <= lines.length && drawn.ids.every((id, i) => lines[i]?.id === id && lines[i]?.type === drawn.types[i]);
  if (extends_) ol.append(...lines.slice(drawn.ids.length).map((line) => lineOf(line, state, tiles, autoIds)));
  else ol.replaceChildren(...lines.map((line) => lineOf(line, state, tiles, autoIds)));
  ol.drawn = { words, ids: lines.map((l) => l.id), types: lines.map((l) => l.type) };
  if (ol.atBottom || ol.dataset.init !== '1') scrollToEnd(ol);
  ol.dataset.init = '1';
}

/**
 * Whether the reader is at the log's end, kept by its scroll events: reading the log's
 * scroll height while a move is being drawn made the page lay out twice a move.
 */
function followBottom(ol) {
  if (ol.atBottom !== undefined) return;
  ol.atBottom = true;
  ol.addEventListener('scroll', () => { ol.atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40; }, { passive: true });
}

/** Scrolls to the end just before the next frame, when the page lays out anyway. */
function scrollToEnd(ol) {
  if (typeof requestAnimationFrame !== 'function') { ol.scrollTop = ol.scrollHeight; return; }
  if (ol.scrollPending) return;
  ol.scrollPending = true;
  requestAnimationFrame(() => {
    ol.scrollPending = false;
    ol.scrollTop = ol.scrollHeight;
  });
}

/**
 * Hovering a linked log line outlines its cells; a click, a tap or Enter shows them
 * (panning the board there). onHover(cells | null), onPick(cells).
 */
export function bindLog(ol, { onHover, onPick }) {
  const cellsOf = (ev) => {
    const li = ev.target.closest?.('li[data-cells]');
    if (!li) return null;
    try { return JSON.parse(li.dataset.cells); } catch { return null; }
  };
  let hovered = null;
  ol.addEventListener('pointerover', (ev) => {
    if (ev.pointerType === 'touch') return;
    const li = ev.target.closest?.('li[data-cells]') ?? null;
    if (li === hovered) return;
    hovered = li;
    onHover(li ? cellsOf(ev) : null);
  });
  ol.addEventListener('pointerleave', () => {
    hovered = null;
    onHover(null);
  });
  ol.addEventListener('click', (ev) => {
    const cells = cellsOf(ev);
    if (cells) onPick(cells);
  });
  ol.addEventListener('keydown', (ev) => {
    const lines = [...ol.querySelectorAll('li[data-cells]')];
    const at = lines.indexOf(ev.target.closest?.('li'));
    const to = { ArrowDown: at + 1, ArrowUp: at < 0 ? lines.length - 1 : at - 1, Home: 0, End: lines.length - 1 }[ev.key];
    if (to !== undefined) {
      // Arrows stay in the log (the board's arrow keys are for the board).
      ev.preventDefault();
      ev.stopPropagation();
      const li = lines[Math.max(0, Math.min(lines.length - 1, to))];
      li?.focus();
      if (li) onHover(JSON.parse(li.dataset.cells));
      return;
    }
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const cells = cellsOf(ev);
    if (!cells) return;
    ev.preventDefault();
    onPick(cells);
  });
}
