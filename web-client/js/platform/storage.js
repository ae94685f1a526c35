// Browser storage that never throws (private mode, disabled or full storage), and the
// names of the keys the client keeps. Other tools rely on `carc.token.<room>`.

export const KEYS = {
  token: (room) => `carc.token.${room}`,
  pendingName: (room) => `carc.pendingName.${room}`,
  game: (room) => `carc.game.${room}`, // what "your games" shows before asking the server
  solo: (room) => `carc.solo.${room}`, // session: a game against the computer to set up
  setup: (room) => `carc.setup.${room}`, // session: the expansions and pace the start page chose
  draft: (room) => `carc.draft.${room}`, // session: the placement being prepared, kept through a reload
  rematchFrom: (room) => `carc.rematchFrom.${room}`, // session: this room is the rematch of that one
  view: (room) => `carc.view.${room}`, // the board's zoom and centre in that room
  openOnJoin: (room) => `carc.openOnJoin.${room}`, // session: quick play made this lobby: open it once seated
  notify: (room) => `carc.notify.${room}`, // '1': this browser's push subscription was sent for its seat
  name: 'carc.name',
  lang: 'carc.lang',
  sound: 'carc.sound',
  bagOpen: 'carc.bagOpen',
};

/** A get/set/del/keys wrapper around a Storage returned by `area()` (which may throw). */
export function safeStorage(area) {
  const use = (fn, fallback) => {
    try {
      const s = area();
      return s ? fn(s) : fallback;
    } catch {
      return fallback;
    }
  };
  return {
    get: (k) => use((s) => s.getItem(k), null),
    set: (k, v) => use((s) => { s.setItem(k, String(v)); }, undefined),
    del: (k) => use((s) => { s.removeItem(k); }, undefined),
    keys: () => use((s) => Array.from({ length: s.length }, (_, i) => s.key(i)).filter((k) => k !== null), []),
  };
}

export const local = safeStorage(() => globalThis.localStorage);
export const session = safeStorage(() => globalThis.sessionStorage);

/** The board's view kept for a room ({scale, cx, cy}, board.js's `memory`). */
export function viewMemory(room, store = local) {
  return {
    load() {
      try {
        const v = JSON.parse(store.get(KEYS.view(room)) ?? 'null');
        return v && [v.scale, v.cx, v.cy].every(Number.isFinite) ? v : null;
      } catch {
        return null;
      }
    },
    save(v) {
      store.set(KEYS.view(room), JSON.stringify({ scale: +v.scale.toFixed(4), cx: +v.cx.toFixed(1), cy: +v.cy.toFixed(1) }));
    },
  };
}
