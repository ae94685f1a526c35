// Pure handling of the server's state messages (welcome, patch, state).
// The store is an immutable value: reduce(store, message) returns the next store and
// what the caller must do (send a resync, remember a token, show an error).

import { applyPatch } from './patch.js';
import { ask } from '../expansions/registry.js';

export function initialStore() {
  return {
    version: null, // the version of `state`, null before the first welcome/state
    state: null,
    seat: null, // my seat, null for a spectator or before joining
    joined: false,
    awaitingResync: false, // a resync was asked for; patches are ignored until a state
  };
}

/**
 * Applies one server message to the store.
 * Returns {store, resync, token, error, changed, patchOps}:
 *   resync: true if the caller must send {"type":"resync"} now.
 *   token: a seat token to persist (welcome with a seat), or undefined.
 *   error: the server error message object, if it was one.
 *   changed: the state changed (redraw).
 */
export function reduce(store, msg) {
  const out = { store, resync: false, token: undefined, error: null, changed: false };
  if (!msg || typeof msg !== 'object') return out;
  switch (msg.type) {
    case 'welcome': {
      out.store = {
        ...store,
        version: msg.version,
        state: msg.state,
        seat: msg.seat ?? null,
        joined: true,
        awaitingResync: false,
      };
      if (msg.token) out.token = msg.token;
      out.changed = true;
      return out;
    }
    case 'state': {
      out.store = { ...store, version: msg.version, state: msg.state, awaitingResync: false };
      out.changed = true;
      return out;
    }
    case 'patch': {
      if (store.state === null || store.version === null) return out; // nothing to patch yet
      if (msg.version <= store.version) return out; // already have it (e.g. after a resync)
      if (store.awaitingResync) return out;
      if (msg.version !== store.version + 1) {
        out.store = { ...store, awaitingResync: true };
        out.resync = true;
        return out;
      }
      let next;
      try {
        next = applyPatch(store.state, msg.ops);
      } catch (e) {
        out.store = { ...store, awaitingResync: true };
        out.resync = true;
        return out;
      }
      out.store = { ...store, version: msg.version, state: next };
      out.changed = true;
      out.patchOps = msg.ops;
      return out;
    }
    case 'error': {
      out.error = msg;
      return out;
    }
    default:
      return out;
  }
}

/** Events present in `next` but not in `prev` (events are append-only, by id). */
export function newEvents(prev, next) {
  const before = prev?.events ?? [];
  const after = next?.events ?? [];
  const lastId = before.length ? before[before.length - 1].id : -1;
  return after.filter((e) => e.id > lastId);
}

export function playerBySeat(state, seat) {
  return state?.players?.find((p) => p.seat === seat) ?? null;
}

/** Whether the viewer places this turn's tile now (not while the turn waits for an expansion's stage). */
export function isMyTurn(store) {
  const s = store.state;
  return !!(s && s.phase === 'playing' && s.turn && store.seat !== null && s.turn.seat === store.seat) && !turnStage(s);
}

/**
 * The stage the turn waits for, after its placement and before its scoring, that an
 * expansion runs (expansions/registry.js: turnStage, e.g. a neutral figure moved by every seat in turn): {seat,
 * cells, mineKey, hintKey?, otherKey, params} or null.
 */
export function turnStage(state) {
  return state?.phase === 'playing' && state.turn ? ask('turnStage', state) : null;
}

/** Whether the game waits for the viewer: their turn to place, or their step of a stage. */
export function mustAct(store) {
  return isMyTurn(store) || (store.seat !== null && store.seat !== undefined && turnStage(store.state)?.seat === store.seat);
}

/** Legal entries of the current turn for one cell, in the server's order. */
export function legalAt(state, x, y) {
  return (state?.turn?.legal ?? []).filter((l) => l.x === x && l.y === y);
}

/** Distinct legal cells of the current turn. */
export function legalCells(state) {
  const seen = new Map();
  for (const l of state?.turn?.legal ?? []) {
    const k = `${l.x},${l.y}`;
    if (!seen.has(k)) seen.set(k, { x: l.x, y: l.y, rotation: l.rotation });
  }
  return [...seen.values()];
}

/** Bounding box of the board (plus extra cells), in cells. */
export function boardBounds(state, extra = []) {
  const cells = [...(state?.board ?? []), ...extra];
  if (!cells.length) return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const c of cells) {
    minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x);
    minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y);
  }
  return { minX, minY, maxX, maxY };
}

/** Total of the bag's remaining tiles. */
export function bagTotal(state) {
  return Object.values(state?.bag?.tiles ?? {}).reduce((a, b) => a + b, 0);
}
