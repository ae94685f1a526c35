// Why a move is worth playing, in points, from the public board: what it completes for its
// player at once, what its figure claims and is worth so far, which of the player's
// features it makes bigger. The hint (hint.js) and the review's better move
// (replayreview.js) say it in words. Pure: no DOM, so node tests it. The server's events
// stay the authority on points; this is the same reading the meeple spots give (spots.js).

import { FeatureMap } from '../game/features.js';
import { cleanBoard, placeOnMap } from '../board/boardart.js';
import { t, joinNames } from '../i18n/i18n.js';
import { spotName, spotPoints, featurePoints } from '../board/spots.js';
import { figureIds } from '../expansions/registry.js';

/**
 * What `move` ({x, y, rotation, meeple?, figure?, return?}) of `tile` does for `seat` on
 * the board of `state`: {completes: [{kind, points}] (features it completes that score for
 * the seat), claim: {kind, figure, tiles, points, complete} | null, grows: [{kind, tiles}]
 * (the seat's open features it joins), gifts: [{kind, points, seats}] (features it
 * completes for others only)}, or null when the board cannot be followed.
 */
export function moveGains(state, tiles, tile, move, seat) {
  if (!move || !tiles?.[tile] || !Number.isInteger(move.x) || !Number.isInteger(move.y)) return null;
  const map = new FeatureMap(tiles);
  const figure = figureIds().includes(move.figure) ? move.figure : 'meeple';
  try {
    for (const b of cleanBoard(state)) placeOnMap(map, b);
    const did = map.place({
      x: move.x, y: move.y, tile, rotation: Number(move.rotation) || 0, meeple: move.meeple ?? null, seat, figure, ret: move.return ?? null,
    });
    const completes = [];
    const gifts = [];
    for (const f of did.completed) {
      const points = featurePoints(f, map, true);
      if (f.owners.includes(seat)) completes.push({ kind: f.kind, points });
      else if (f.owners.length) gifts.push({ kind: f.kind, points, seats: f.owners });
    }
    let claim = null;
    if (did.claimed >= 0) {
      const root = map.find(did.claimed);
      const done = did.completed.find((f) => f.root === root);
      const f = done ?? map.feature(root);
      claim = { kind: f.kind, figure, tiles: f.tiles, complete: !!done, points: featurePoints(f, map, !!done) };
    }
    const grows = [];
    for (const r of did.roots) {
      const f = map.feature(r);
      if (f.complete || f.kind === 'field' || r === (did.claimed >= 0 ? map.find(did.claimed) : -1)) continue;
      if (f.meeples.some((m) => m.seat === seat) && did.touched.includes(r)) grows.push({ kind: f.kind, tiles: f.tiles });
    }
    return { completes, claim, grows, gifts };
  } catch {
    return null; // a board this client cannot follow: no reason given
  }
}

/** The points the move scores for its player at once. */
export const pointsNow = (g) => (g?.completes ?? []).reduce((n, c) => n + c.points, 0);

/**
 * The reason in words, one short line: "completes a city: +8 for you · a meeple on the
 * road, 3 tiles: worth 3 points so far". `names(seats)`: the players' names, for a gift.
 */
export function reasonText(g, names = () => '') {
  if (!g) return '';
  const parts = [];
  for (const c of g.completes) parts.push(t('why.completes', { feature: t(`feature.${c.kind}`), n: c.points }));
  if (g.claim && !g.claim.complete) {
    const spot = { kind: g.claim.kind, figure: g.claim.figure };
    const info = { kind: g.claim.kind, tiles: g.claim.tiles, complete: false, points: g.claim.points, pennants: 0 };
    parts.push(`${spotName(spot, info)}: ${spotPoints(spot, info)}`.replace(/: $/, ''));
  }
  for (const c of g.grows) parts.push(t('why.grows', { feature: t(`feature.${c.kind}`), n: c.tiles }));
  if (!parts.length) {
    for (const c of g.gifts) parts.push(t('why.gift', { feature: t(`feature.${c.kind}`), n: c.points, name: joinNames(names(c.seats)) }));
  }
  if (!parts.length) return t('why.quiet');
  const text = parts.join(' · ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
