// Helpers of the replay, "your games" and lobby tests: games played quickly over the real
// protocol from inside a page (WebSockets to the real server, the client's own state.js
// applying the patches), so a test can have a finished game in a second or two.

/**
 * In `page` (on the server's origin): creates a room (or uses `room`), seats `names`, starts,
 * and plays every turn with a legal move until the game ends (or `moves` moves were made).
 * Moves are picked by a seeded generator among the server's legal entries, with meeples,
 * so features score. Returns {room, tokens, state, version}.
 */
export async function playOverProtocol(page, { names = ['Ann', 'Ben'], moves = Infinity, seed = 1, room = null } = {}) {
  return page.evaluate(async ({ names, moves, seed, room }) => {
    const { initialStore, reduce } = await import('/js/state.js');
    if (!room) {
      const res = await fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      room = (await res.json()).room;
    }
    let s = seed >>> 0;
    const pick = (n) => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return (s >>> 8) % n;
    };
    const clients = [];
    const until = (c, ok, what) => new Promise((resolve, reject) => {
      if (ok(c)) return resolve();
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 15000);
      c.waiters.push(() => {
        if (!ok(c)) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
    });
    for (const name of names) {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${room}`);
      const c = { ws, store: initialStore(), token: null, waiters: [], errors: [] };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        const r = reduce(c.store, msg);
        c.store = r.store;
        if (r.token) c.token = r.token;
        if (r.error) c.errors.push(r.error);
        if (r.resync) ws.send(JSON.stringify({ type: 'resync' }));
        c.waiters = c.waiters.filter((w) => !w());
      };
      await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
      ws.send(JSON.stringify({ type: 'join', name }));
      await until(c, (x) => x.store.joined, `${name}'s welcome`);
      clients.push(c);
    }
    const host = clients[0];
    if (host.store.state.phase === 'lobby') {
      host.ws.send(JSON.stringify({ type: 'start' }));
      await until(host, (x) => x.store.state.phase !== 'lobby', 'the start');
    }
    let made = 0;
    while (host.store.state.phase === 'playing' && made < moves) {
      const st = host.store.state;
      const c = clients.find((x) => x.store.seat === st.turn.seat);
      if (!c) throw new Error(`nobody here plays seat ${st.turn.seat}`);
      await until(c, (x) => x.store.version >= host.store.version, 'the same version everywhere');
      const legal = c.store.state.turn.legal;
      const l = legal[pick(legal.length)];
      const meeple = l.meeples.length && pick(4) !== 0 ? l.meeples[pick(l.meeples.length)] : null;
      const v = c.store.version;
      const turn = c.store.state.turn.number;
      c.ws.send(JSON.stringify({ type: 'play', version: v, x: l.x, y: l.y, rotation: l.rotation, meeple }));
      await until(host, (x) => x.store.state.phase !== 'playing' || x.store.state.turn?.number > turn, `turn ${turn} to pass`);
      made++;
    }
    const errors = clients.flatMap((c) => c.errors);
    if (errors.length) throw new Error(`the server refused: ${JSON.stringify(errors)}`);
    for (const c of clients) c.ws.close();
    return { room, tokens: clients.map((c) => c.token), state: host.store.state, version: host.store.version };
  }, { names, moves: Number.isFinite(moves) ? moves : 1e9, seed, room });
}

/**
 * The events a client shows, comparable between the live game and a replay (as in
 * tests/reference): each with its turn, cells as a set, meeple counts without the empty
 * seats past the players; as a sorted list, since two features scored by one move (or at
 * the end) may come in either order.
 */
export function comparableEvents(events) {
  return (events ?? [])
    .filter((e) => ['placed', 'discarded', 'scored', 'game_over'].includes(e.type))
    .map(({ id: _id, ...e }) => {
      if (e.cells) e.cells = e.cells.map((c) => `${c.x},${c.y}`).sort();
      if (e.meeples) {
        e.meeples = [...e.meeples];
        while (e.meeples.length && e.meeples.at(-1) === 0) e.meeples.pop();
      }
      return JSON.stringify(Object.fromEntries(Object.keys(e).sort().map((k) => [k, e[k]])));
    })
    .sort();
}
