// The tile catalog from GET /api/tiles (docs/protocol-details.md).

/** A tile id: a base letter (A..X) or an expansion's short id (RS, R6g, Eg, I12, T3...). */
export const TILE_ID_RE = /^[A-Z][A-Za-z0-9]{0,3}$/;

/** Keeps only well-formed tiles (letters end up in SVG ids and markup); adds a by-letter map. */
export function cleanCatalog(raw) {
  const catalog = { ...(raw && typeof raw === 'object' ? raw : {}) };
  catalog.tiles = (Array.isArray(catalog.tiles) ? catalog.tiles : [])
    .filter((tl) => tl && TILE_ID_RE.test(tl.letter) && Array.isArray(tl.features) && Array.isArray(tl.sides));
  return { catalog, tiles: Object.fromEntries(catalog.tiles.map((tl) => [tl.letter, tl])) };
}

export async function fetchCatalog(fetchFn = fetch) {
  const res = await fetchFn('/api/tiles');
  if (!res.ok) throw new Error(`GET /api/tiles: HTTP ${res.status}`);
  return cleanCatalog(await res.json());
}
