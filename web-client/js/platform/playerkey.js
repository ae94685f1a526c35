// The player key (docs/turn-based.md): "your games" on every device without an account. The key is
// kept in localStorage and sent only in an Authorization header; the transfer link carries it
// in the URL fragment (#key=...), which a browser never sends to a server, and the page drops
// the fragment from the address bar as soon as it has read it.

import { KEYS } from './storage.js';

export const KEY_NAME = 'carc.playerKey';
const KEY_FORM = /^[A-Za-z0-9_-]{43}$/;
const keyedName = (room) => `carc.keyed.${room}`; // this seat was shown to the key

function auth(key) { return { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }; }

/** A key from the transfer link's fragment, kept; the fragment is removed. True if one was taken. */
export function adoptKeyFromHash(store, loc = globalThis.location, hist = globalThis.history) {
  const m = /^#key=([A-Za-z0-9_-]{43})$/.exec(loc?.hash ?? '');
  if (!m) return false;
  store.set(KEY_NAME, m[1]);
  hist?.replaceState(null, '', loc.pathname + loc.search);
  return true;
}

export function currentKey(store) {
  const k = store.get(KEY_NAME);
  return k && KEY_FORM.test(k) ? k : null;
}

/** This browser's key, made (POST /api/keys) when it has none. */
export async function ensureKey(store, fetchFn = globalThis.fetch) {
  const have = currentKey(store);
  if (have) return have;
  const res = await fetchFn('/api/keys', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  if (res.status !== 201) throw new Error(`HTTP ${res.status}`);
  const { key } = await res.json();
  if (!KEY_FORM.test(key ?? '')) throw new Error('no key in the answer');
  store.set(KEY_NAME, key);
  return key;
}

/** Shows this browser's seat in `room` to the key (made on first use), once per room. */
export async function attachSeat(store, room, token, fetchFn = globalThis.fetch) {
  if (store.get(keyedName(room)) === token) return;
  const key = await ensureKey(store, fetchFn);
  let res = await fetchFn('/api/keys/seats', { method: 'POST', headers: auth(key), body: JSON.stringify({ room, token }) });
  if (res.status === 401) {
    // Revoked elsewhere: a new key for this browser.
    store.del(KEY_NAME);
    const fresh = await ensureKey(store, fetchFn);
    res = await fetchFn('/api/keys/seats', { method: 'POST', headers: auth(fresh), body: JSON.stringify({ room, token }) });
  }
  if (res.ok) store.set(keyedName(room), token);
}

/** Takes every seat the key holds into this browser (the tokens of rooms it does not know). Returns how many. */
export async function syncFromKey(store, fetchFn = globalThis.fetch, now = Date.now()) {
  const key = currentKey(store);
  if (!key) return 0;
  const res = await fetchFn('/api/keys/games', { headers: auth(key) });
  if (res.status === 401) { store.del(KEY_NAME); return 0; }
  if (!res.ok) return 0;
  const body = await res.json().catch(() => null);
  let added = 0;
  for (const g of Array.isArray(body?.games) ? body.games : []) {
    if (typeof g?.room !== 'string' || typeof g.token !== 'string' || !Number.isInteger(g.seat)) continue;
    if (store.get(KEYS.token(g.room))) continue;
    store.set(KEYS.token(g.room), g.token);
    store.set(KEYS.game(g.room), JSON.stringify({ seat: g.seat, name: null, updated: now }));
    store.set(keyedName(g.room), g.token);
    added++;
  }
  return added;
}

/** {link, svg} of the transfer link, or null. */
export async function transferLink(store, fetchFn = globalThis.fetch) {
  const key = currentKey(store);
  if (!key) return null;
  const res = await fetchFn('/api/keys/transfer', { method: 'POST', headers: auth(key), body: '{}' });
  return res.ok ? res.json() : null;
}

/** Revokes the key everywhere; this browser keeps its own seats (their tokens). */
export async function revokeKey(store, fetchFn = globalThis.fetch) {
  const key = currentKey(store);
  if (!key) return true;
  const res = await fetchFn('/api/keys/revoke', { method: 'POST', headers: auth(key), body: '{}' });
  if (res.ok || res.status === 401) {
    store.del(KEY_NAME);
    for (const k of store.keys()) if (k.startsWith('carc.keyed.')) store.del(k);
    return true;
  }
  return false;
}
