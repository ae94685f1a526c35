// The dragon's move as the client shows it (docs/web-client-expansions.md, "The Princess &
// the Dragon"): while `turn.stage` is "dragon" the seat `turn.dragon.seat` chooses the next
// tile among `turn.dragon.options`, the tiles visited so far (`turn.dragon.visited`, the
// start included) are its path, and `turn.seat` stays the placer's. Everything comes from
// the public state, so a page that reconnects in the middle of the move shows the same.
// Pure; node tests it.

const isCell = (c) => !!c && Number.isInteger(c.x) && Number.isInteger(c.y);
const cells = (list) => (Array.isArray(list) ? list.filter(isCell).map((c) => ({ x: c.x, y: c.y })) : []);
export const cellKey = (c) => `${c.x},${c.y}`;

/** Where the dragon stands ({x, y}) or null while it is beside the board. */
export function dragonAt(state) {
  return isCell(state?.dragon) ? { x: state.dragon.x, y: state.dragon.y } : null;
}

/**
 * The dragon stage of the state for the viewer at `mySeat`, or null outside it:
 * {seat, step, options, visited, path, at, mine, placer}. `path`: the visited tiles then
 * the dragon's own tile when it is not the last of them (the line drawn on the board).
 */
export function dragonStage(state, mySeat = null) {
  const turn = state?.turn;
  if (state?.phase !== 'playing' || turn?.stage !== 'dragon') return null;
  const d = turn.dragon;
  if (!d || !Number.isInteger(d.seat)) return null;
  const visited = cells(d.visited);
  const at = dragonAt(state);
  const path = [...visited];
  if (at && (!path.length || cellKey(path[path.length - 1]) !== cellKey(at))) path.push(at);
  return {
    seat: d.seat,
    step: Number.isInteger(d.step) ? d.step : null,
    options: cells(d.options),
    visited,
    path,
    at,
    placer: Number.isInteger(turn.seat) ? turn.seat : null,
    mine: mySeat !== null && mySeat !== undefined && mySeat === d.seat,
  };
}

/**
 * The dragon's last move once it has ended, until the next placement: {path, steps, eaten}
 * from the events (its `dragon_step` events after the placement that began it), or null.
 * Computer players and absent seats step at once, so without it a player would see the
 * dragon jump and figures vanish; `path` runs from where the move began through each step,
 * `eaten` lists the tiles where it ate. During a move the stage draws the path instead.
 */
export function lastDragonMove(state) {
  if (state?.phase !== 'playing' || state.turn?.stage === 'dragon') return null;
  const events = Array.isArray(state.events) ? state.events : [];
  let i = events.length - 1;
  while (i >= 0 && events[i]?.type !== 'dragon_step') {
    if (events[i]?.type === 'placed' || events[i]?.type === 'discarded') return null; // a newer turn has begun
    i--;
  }
  const steps = [];
  for (; i >= 0 && events[i]?.type !== 'placed'; i--) if (events[i]?.type === 'dragon_step') steps.unshift(events[i]);
  // One move: its steps numbered from 1 (a move that follows another in the same turn keeps its own).
  const first = steps.findLastIndex((e) => e.step === 1);
  const move = first >= 0 ? steps.slice(first) : steps;
  if (!move.length || !isCell(move[0].from) || !move.every((e) => isCell(e.to))) return null;
  const path = [{ x: move[0].from.x, y: move[0].from.y }, ...move.map((e) => ({ x: e.to.x, y: e.to.y }))];
  const eaten = move.filter((e) => Array.isArray(e.eaten) && e.eaten.length).map((e) => ({ x: e.to.x, y: e.to.y }));
  return { path, steps: move.length, eaten };
}

/** The `dragon` message for a step to `to`, or null when `to` is not one of the stage's options. */
export function dragonMessage(stage, to, version) {
  if (!stage?.mine || !isCell(to) || !stage.options.some((o) => cellKey(o) === cellKey(to))) return null;
  return { type: 'dragon', version, to: { x: to.x, y: to.y } };
}

/** The turn waits for the dragon (base code's turnStage hook): whose step, the cells to choose from, the banner's and the action bar's words. */
export function dragonTurnStage(state) {
  const s = dragonStage(state);
  if (!s) return null;
  return { seat: s.seat, cells: s.options, mineKey: 'dragon.yourStep', hintKey: 'dragon.yourStepHint', otherKey: 'dragon.otherStep', params: { step: s.step ?? '?' } };
}
