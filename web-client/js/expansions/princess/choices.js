// The figure step's choices that are not a figure on the placed tile (docs/web-client-
// expansions.md, "The Princess & the Dragon"): the princess sending a knight home
// (`turn.legal[].princess`), a follower through the magic portal onto another tile
// (`turn.legal[].portal`), and moving the fairy (`turn.fairy`, the same for every
// placement). Each is one draft choice string, as the abbot's take-back is
// (game/figure-spots.js): "princess:X,Y,AT", "fairy:X,Y,AT", "portal:X,Y,AT" for a meeple
// and "portal:X,Y,AT,FIGURE" for a big meeple or an abbot. Pure; node tests it.

const PORT_RE = /^(?:[NESW][LR]?|C|G|I)$/;
const CHOICE_RE = /^(princess|fairy|portal):(-?\d+),(-?\d+),([A-Z]{1,2})(?:,([a-z]+))?$/;

const spotOk = (s) => !!s && Number.isInteger(s.x) && Number.isInteger(s.y) && PORT_RE.test(s.at);

/** {kind, x, y, at, figure} of a choice string, or null. */
export function parseChoice(choice) {
  const m = typeof choice === 'string' ? CHOICE_RE.exec(choice) : null;
  if (!m || !PORT_RE.test(m[4])) return null;
  if (m[5] && m[1] !== 'portal') return null;
  return { kind: m[1], x: Number(m[2]), y: Number(m[3]), at: m[4], figure: m[5] ?? 'meeple' };
}

const choiceOf = (kind, s, figure = 'meeple') => `${kind}:${s.x},${s.y},${s.at}${figure === 'meeple' ? '' : `,${figure}`}`;

/** The knights this placement's princess may send home: [{x, y, at}]. */
export function princessTargets(entry) {
  return (Array.isArray(entry?.princess) ? entry.princess : []).filter(spotOk).map((s) => ({ x: s.x, y: s.y, at: s.at }));
}

/** The followers the fairy may go next to this turn: [{x, y, at}]. */
export function fairyTargets(turn) {
  return (Array.isArray(turn?.fairy) ? turn.fairy : []).filter(spotOk).map((s) => ({ x: s.x, y: s.y, at: s.at }));
}

/** The portal's spots of a placement: [{x, y, at, figure}], the meeple's first on each tile. */
export function portalTargets(entry) {
  const out = [];
  for (const tile of Array.isArray(entry?.portal) ? entry.portal : []) {
    if (!tile || !Number.isInteger(tile.x) || !Number.isInteger(tile.y)) continue;
    const add = (ports, figure) => {
      for (const at of Array.isArray(ports) ? ports : []) if (PORT_RE.test(at)) out.push({ x: tile.x, y: tile.y, at, figure });
    };
    add(tile.meeples, 'meeple');
    for (const [figure, ports] of Object.entries(tile.figures ?? {})) if (/^[a-z]+$/.test(figure)) add(ports, figure);
  }
  return out;
}

/** Every choice string a placement offers beyond its own spots: the portal's, the princess's, the fairy's. */
export function entryActions(entry, turn) {
  return [
    ...portalTargets(entry).map((s) => choiceOf('portal', s, s.figure)),
    ...princessTargets(entry).map((s) => choiceOf('princess', s)),
    ...fairyTargets(turn).map((s) => choiceOf('fairy', s)),
  ];
}

/** The `play` keys of a choice this placement offers (protocol: portal + meeple, fairy, princess), or null. */
export function actionFields(entry, choice, turn) {
  const c = parseChoice(choice);
  if (!c || !entryActions(entry, turn).includes(choice)) return null;
  const where = { x: c.x, y: c.y, at: c.at };
  if (c.kind === 'princess') return { meeple: null, princess: where };
  if (c.kind === 'fairy') return { meeple: null, fairy: where };
  return { meeple: c.at, ...(c.figure === 'meeple' ? {} : { figure: c.figure }), portal: { x: c.x, y: c.y } };
}

/**
 * Why a placement offers no figure on its tile, as a string key, or null: on a volcano the
 * dragon lands at once, and nothing may stand on the dragon's tile.
 */
export function noFigureReason(entry, tileDef) {
  if (tileDef?.symbol !== 'volcano' || !entry) return null;
  const none = !(entry.meeples ?? []).length && Object.values(entry.figures ?? {}).every((p) => !p?.length);
  return none ? 'princess.volcanoNoFigure' : null;
}
