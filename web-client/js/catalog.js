// The tile catalog from GET /api/tiles (docs/protocol-details.md).

/** Keeps only well-formed tiles (letters end up in SVG ids and markup); adds a by-letter map. */
export function cleanCatalog(raw) {
  const catalog = { ...(raw && typeof raw === 'object' ? raw : {}) };
  catalog.tiles = (Array.isArray(catalog.tiles) ? catalog.tiles : [])
    .filter((tl) => tl && /^[A-Z]$/.test(tl.letter) && Array.isArray(tl.features) && Array.isArray(tl.sides));
  return { catalog, tiles: Object.fromEntries(catalog.tiles.map((tl) => [tl.letter, tl])) };
}

export async function fetchCatalog(fetchFn = fetch) {
  const res = await fetchFn('/api/tiles');
  if (!res.ok) throw new Error(`GET /api/tiles: HTTP ${res.status}`);
  return cleanCatalog(await res.json());
}
