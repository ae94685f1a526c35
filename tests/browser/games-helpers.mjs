// Helpers of the replay, "your games" and lobby tests: games played quickly over the real
// protocol from inside a page (WebSockets to the real server, the client's own state.js
// applying the patches), so a test can have a finished game in a second or two.

/**
 * In `page` (on the server's origin): creates a room (or uses `room`), takes seats (`names`
 * join by name; `tokens` take back existing seats, which moves them away from the pages
 * that held them), starts when the first client is the host in the lobby, and plays every
 * turn of its seats with a legal move until the game ends, `moves` moves were made, or
 * (`untilBagEmpty`) the bag is empty. Turns of seats it does not hold are waited for.
 * Moves are picked by a seeded generator among the server's legal entries, with meeples,
 * so features score. Returns {room, tokens, state, version}.
 */
export async function playOverProtocol(page, { names = ['Ann', 'Ben'], tokens = null, moves = Infinity, seed = 1, room = null, untilBagEmpty = false } = {}) {
  return page.evaluate(async ({ names, tokens, moves, seed, room, untilBagEmpty }) => {
    const { initialStore, reduce } = await import('/js/game/state.js');
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
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 20000);
      c.waiters.push(() => {
        if (!ok(c)) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
    });
    const joins = tokens ? tokens.map((token) => ({ type: 'join', token })) : names.map((name) => ({ type: 'join', name }));
    for (const join of joins) {
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
      ws.send(JSON.stringify(join));
      await until(c, (x) => x.store.joined, 'a welcome');
      clients.push(c);
    }
    const first = clients[0];
    const me = first.store.state.players.find((p) => p.seat === first.store.seat);
    if (first.store.state.phase === 'lobby' && me?.host) {
      first.ws.send(JSON.stringify({ type: 'start' }));
      await until(first, (x) => x.store.state.phase !== 'lobby', 'the start');
    }
    let made = 0;
    const done = (st) => st.phase !== 'playing' || made >= moves || (untilBagEmpty && st.bag.left === 0);
    while (!done(first.store.state)) {
      const st = first.store.state;
      const turn = st.turn.number;
      const passed = (x) => x.store.state.phase !== 'playing' || x.store.state.turn?.number > turn;
      const c = clients.find((x) => x.store.seat === st.turn.seat);
      if (!c) {
        await until(first, passed, `turn ${turn} (someone else's)`);
        continue;
      }
      await until(c, (x) => x.store.version >= first.store.version, 'the same version everywhere');
      const legal = c.store.state.turn.legal;
      const l = legal[pick(legal.length)];
      const meeple = l.meeples.length && pick(4) !== 0 ? l.meeples[pick(l.meeples.length)] : null;
      c.ws.send(JSON.stringify({ type: 'play', version: c.store.version, x: l.x, y: l.y, rotation: l.rotation, meeple }));
      await until(first, passed, `turn ${turn} to pass`);
      made++;
    }
    const errors = clients.flatMap((c) => c.errors);
    if (errors.length) throw new Error(`the server refused: ${JSON.stringify(errors)}`);
    for (const c of clients) c.ws.close();
    return { room, tokens: clients.map((c) => c.token), state: first.store.state, version: first.store.version };
  }, { names, tokens, moves: Number.isFinite(moves) ? moves : 1e9, seed, room, untilBagEmpty });
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

/**
 * A seat held by a client of the protocol running inside `page` (no rendering): it joins
 * `room` as `name` and plays its own turns (a legal placement, a meeple when there is one)
 * until closeProtocolSeats(page). Resolves with its seat and token once seated.
 */
export async function seatOverProtocol(page, room, name) {
  return page.evaluate(async ({ room, name }) => {
    const { initialStore, reduce } = await import('/js/game/state.js');
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${room}`);
    const c = { ws, store: initialStore(), token: null, sentFor: -1 };
    (window.__protocolSeats ??= []).push(c);
    await new Promise((resolve, reject) => {
      ws.onerror = reject;
      ws.onopen = () => ws.send(JSON.stringify({ type: 'join', name }));
      ws.onmessage = (ev) => {
        const r = reduce(c.store, JSON.parse(ev.data));
        c.store = r.store;
        if (r.token) c.token = r.token;
        if (r.resync) ws.send(JSON.stringify({ type: 'resync' }));
        if (c.store.joined) resolve();
        const { state, version, seat } = c.store;
        if (state?.phase === 'playing' && state.turn?.seat === seat && c.sentFor !== version) {
          const l = state.turn.legal[(state.turn.number * 5) % state.turn.legal.length];
          ws.send(JSON.stringify({ type: 'play', version, x: l.x, y: l.y, rotation: l.rotation, meeple: l.meeples[0] ?? null }));
          c.sentFor = version;
        }
      };
    });
    return { seat: c.store.seat, token: c.token };
  }, { room, name });
}

/** Closes the protocol seats of `page`: their players are away from then on. */
export async function closeProtocolSeats(page) {
  await page.evaluate(() => {
    for (const c of window.__protocolSeats ?? []) c.ws.close();
    window.__protocolSeats = [];
  });
}
