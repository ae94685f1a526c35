// What the Princess & the Dragon adds on the board (base code's boardLayer and boardAction
// hooks, expansions/registry.js): the dragon and the fairy (the fairy beside the follower it
// stands by), the dragon's path during its move with the tiles the stepping seat may go to
// (buttons for that seat: `data-action="dragon:X,Y"`), and, while a placement is being
// prepared, the targets of the figure step on other tiles: a follower through the portal,
// the princess's knights, the fairy's followers (`data-action="choose:<choice>"`).
// Markup strings only; the numbers come from the state, the words from i18n.

import { t } from '../../i18n/i18n.js';
import { meepleMarkup } from '../../tiles/meeple-art.js';
import { dragonMarkup, fairyMarkup } from './art.js';
import { dragonStage, dragonMessage, lastDragonMove } from './dragon.js';
import { entryActions, parseChoice } from './choices.js';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const RING = 12;
// Where the fairy stands from its follower's spot: up and to the right, clear of the figure.
const FAIRY_DX = 17;
const FAIRY_DY = -12;

/**
 * ctx: {seat (the viewer's), entry (the drafted placement, mine and not sent) | null, choice
 * (the draft's), anchor(x, y, at) -> [bx, by] | null, kindAt(x, y, at) -> kind | null, TILE}.
 */
export function princessLayer(state, ctx) {
  const T = ctx.TILE ?? 100;
  const mid = (c) => [c.x * T + T / 2, c.y * T + T / 2];
  let out = '';
  const stage = dragonStage(state, ctx.seat);
  if (stage) {
    if (stage.path.length > 1) {
      const pts = stage.path.map((c) => mid(c).join(' ')).join(' ');
      out += `<polyline class="dragon-path" data-testid="dragon-path" data-steps="${stage.path.length - 1}" points="${pts}"/>`;
    }
    for (const c of stage.visited) {
      const [x, y] = mid(c);
      out += `<circle class="dragon-visited" data-testid="dragon-visited" data-x="${c.x}" data-y="${c.y}" cx="${x}" cy="${y}" r="5"/>`;
    }
    stage.options.forEach((c, i) => {
      const attrs = stage.mine
        ? ` role="button" tabindex="${i === 0 ? 0 : -1}" aria-label="${esc(t('dragon.stepTo', { x: c.x, y: c.y }))}" data-action="dragon:${c.x},${c.y}"`
        : '';
      out += `<g class="dragon-option${stage.mine ? ' mine' : ''}" data-testid="dragon-option" data-x="${c.x}" data-y="${c.y}"${attrs}>`
        + `<rect x="${c.x * T + 4}" y="${c.y * T + 4}" width="${T - 8}" height="${T - 8}" rx="8"/></g>`;
    });
  } else {
    // The move just made, until the next placement (its steps may all have been a computer player's).
    const last = lastDragonMove(state);
    if (last) {
      const pts = last.path.map((c) => mid(c).join(' ')).join(' ');
      out += `<polyline class="dragon-path done" data-testid="dragon-last-path" data-steps="${last.steps}" points="${pts}"/>`;
      for (const c of last.eaten) {
        const [x, y] = mid(c);
        out += `<circle class="dragon-ate" data-testid="dragon-ate" data-x="${c.x}" data-y="${c.y}" cx="${x}" cy="${y}" r="9"/>`;
      }
    }
  }
  const d = state?.dragon;
  if (d && Number.isInteger(d.x) && Number.isInteger(d.y)) {
    const [x, y] = mid(d);
    out += dragonMarkup(x, y, { scale: 1.1, cls: stage ? 'moving' : '' });
  }
  const f = state?.fairy;
  if (f && Number.isInteger(f.x) && Number.isInteger(f.y)) {
    const n = f.next_to;
    const a = n && n.x === f.x && n.y === f.y ? ctx.anchor?.(n.x, n.y, n.at) : null;
    // Beside its follower (up and to the right of it), else in a corner of its tile.
    const [x, y] = a ? [f.x * T + a[0] + FAIRY_DX, f.y * T + a[1] + FAIRY_DY] : [f.x * T + 76, f.y * T + 24];
    out += fairyMarkup(x, y, { scale: 1.25 });
  }
  if (ctx.entry) out += targetsMarkup(ctx, T, state?.players?.find((p) => p.seat === ctx.seat)?.color ?? 'black');
  return out;
}

/**
 * The choices drawn: one ring per spot. A portal spot that several figures may take shows
 * the figure the picker has picked (ctx.figure, or the chosen choice's), else the meeple,
 * else the first listed: rings on the same spot would cover each other, and a click would
 * take the one on top.
 */
export function shownChoices(choices, picked, chosen = null) {
  const want = parseChoice(chosen)?.kind === 'portal' ? parseChoice(chosen).figure : picked;
  const bySpot = new Map();
  for (const choice of choices) {
    const c = parseChoice(choice);
    const key = `${c.kind}:${c.x},${c.y},${c.at}`;
    const have = bySpot.get(key);
    const rank = (x) => (x.figure === want ? 0 : x.figure === 'meeple' ? 1 : 2);
    if (!have || rank(c) < rank(parseChoice(have))) bySpot.set(key, choice);
  }
  return choices.filter((choice) => [...bySpot.values()].includes(choice));
}

/** The figure step's targets on the board: rings on other tiles, one per spot. */
function targetsMarkup(ctx, T, color) {
  let out = '';
  const choices = shownChoices(entryActions(ctx.entry, ctx.turn), ctx.figure ?? 'meeple', ctx.choice);
  const stop = choices.includes(ctx.choice) ? ctx.choice : null;
  for (const choice of choices) {
    const c = parseChoice(choice);
    const a = ctx.anchor?.(c.x, c.y, c.at);
    if (!a) continue;
    // The fairy's ring sits beside the follower, where the fairy would stand; the others on it.
    const [x, y] = c.kind === 'fairy' ? [c.x * T + a[0] + FAIRY_DX, c.y * T + a[1] + FAIRY_DY] : [c.x * T + a[0], c.y * T + a[1]];
    const chosen = choice === ctx.choice;
    const kind = ctx.kindAt?.(c.x, c.y, c.at) ?? 'road';
    const label = t(`princess.target.${c.kind}`, { x: c.x, y: c.y, feature: t(`feature.${kind}`), figure: t(`figure.${c.figure}`) });
    out += `<g class="princess-target target-${c.kind}${chosen ? ' chosen' : ''}" role="button" aria-pressed="${chosen}" tabindex="${(stop ? choice === stop : choice === choices[0]) ? 0 : -1}"`
      + ` aria-label="${esc(label)}" data-testid="${c.kind}-target" data-x="${c.x}" data-y="${c.y}" data-at="${c.at}" data-action="choose:${choice}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)})">`
      + `<circle class="target-ring" r="${c.kind === 'princess' ? RING + 5 : RING}"/>${c.kind === 'fairy' ? '<use href="#sym-fairy" transform="scale(.7)" opacity=".8"/>' : ''}`
      + `${c.kind === 'princess' ? '<use href="#sym-princess" transform="translate(0 -20) scale(.5)"/>' : ''}`
      // The chosen portal spot shows the follower that would stand there (a meeple's outline for every figure).
      + `${chosen && c.kind === 'portal' ? `<g class="mz">${meepleMarkup(0, 0, color, { farmer: kind === 'field', scale: 0.9, extraClass: 'ghost-figure' })}</g>` : ''}</g>`;
  }
  return out;
}

/**
 * A click on one of this layer's buttons (`data-action`): {send: message} for a dragon
 * step, {choose: choice} for a figure-step target, null for anything else.
 */
export function princessAction(action, { state, seat, version }) {
  if (typeof action !== 'string') return null;
  const step = /^dragon:(-?\d+),(-?\d+)$/.exec(action);
  if (step) {
    const msg = dragonMessage(dragonStage(state, seat), { x: Number(step[1]), y: Number(step[2]) }, version);
    return msg ? { send: msg } : null;
  }
  const choose = /^choose:(.+)$/.exec(action);
  return choose && parseChoice(choose[1]) ? { choose: choose[1] } : null;
}
