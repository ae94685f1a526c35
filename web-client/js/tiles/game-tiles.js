// Which expansions a game has (docs/expansions.md: settings.expansions) and the
// tile set of that game from GET /api/tiles?expansions=..., fetched once per set.

import { expansionIds, expansionById } from '../expansions/registry.js';

/** The expansions of a state (settings.expansions), known ids only, in a fixed order. */
export function expansionsOf(state) {
  const list = state?.settings?.expansions;
  if (!Array.isArray(list)) return [];
  return expansionIds().filter((e) => list.includes(e));
}

/** The settings message that turns one expansion on or off. */
export function toggleMessage(current, id, on) {
  if (!expansionIds().includes(id)) return null;
  const next = expansionIds().filter((e) => (e === id ? on : current.includes(e)));
  return { type: 'settings', expansions: next };
}

/**
 * The game's tiles from the full catalog, before the server's answer arrives: base tiles
 * and those of the expansions in play (a copy of a tile an expansion brings needs that
 * expansion and its plain tile's: expansions/registry.js, tileCopy).
 */
export function localGameCatalog(catalog, expansions) {
  const inPlay = (e) => e === null || e === undefined || expansions.includes(e);
  const byId = Object.fromEntries((catalog?.tiles ?? []).map((t) => [t.letter, t]));
  const tiles = (catalog?.tiles ?? []).filter((t) => {
    if (!inPlay(t.expansion)) return false;
    const plainId = expansionById(t.expansion)?.tileCopy?.(t.letter);
    const plain = plainId ? byId[plainId] : null;
    return !plain || inPlay(plain.expansion);
  });
  return { ...catalog, tiles };
}

const cache = new Map(); // "<id>,<id>" (the expansions) -> catalog | Promise

/**
 * The game's catalog ({tiles with counts, bag, start}) once fetched, else null; the first
 * call starts the fetch and `onLoad` runs when it arrives (the page redraws).
 */
export function gameCatalog(expansions, onLoad, fetchFn = (u) => fetch(u)) {
  const key = expansions.join(',');
  const hit = cache.get(key);
  if (hit && !(hit instanceof Promise)) return hit;
  if (!hit) {
    // Known ids only (lower-case letters): the comma goes as it is (the server does not decode %2C).
    const p = fetchFn(`/api/tiles?expansions=${key}`)
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`HTTP ${res.status}`))))
      .then((raw) => {
        const tiles = Array.isArray(raw?.tiles) ? raw.tiles.filter((t) => t && typeof t.letter === 'string') : [];
        cache.set(key, { ...raw, tiles });
        onLoad?.();
      })
      .catch(() => cache.delete(key)); // asked again at the next redraw
    cache.set(key, p);
  }
  return null;
}
