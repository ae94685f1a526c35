// The web client's entry point: routing, the connection, and the turn being prepared.
// The server decides everything; this file only shows its state and sends choices.

import { initialStore, reduce, newEvents, isMyTurn, legalAt, legalCells, boardBounds } from './js/state.js';
import { Connection, wsUrl } from './js/net.js';
import { Board } from './js/board.js';
import { defsMarkup, tileMarkup, meepleMarkup } from './js/tileart.js';
import { featureAt } from './js/geometry.js';
import { LANGUAGES, pickLanguage, setLanguage, getLanguage, t, errorText } from './js/i18n.js';
import { h, renderPlayers, renderBag, renderLog, renderChat, renderLobby, renderEnd, nameSpan } from './js/ui.js';

const $ = (id) => document.getElementById(id);
const ROOM_RE = /^\/r\/([A-Za-z0-9_-]+)\/?$/;
const TOKEN_KEY = (room) => `carc.token.${room}`;
const PENDING_KEY = (room) => `carc.pendingName.${room}`;

const app = {
  catalog: null,
  tiles: {},
  room: null,
  store: initialStore(),
  conn: null,
  intent: null, // {type:'token', token} | {type:'name', name} | {type:'watch'}
  draft: null, // {x, y, options, idx, meeple, pending, turnKey}
  board: null,
  endDismissed: false,
  titleTimer: null,
  baseTitle: 'Carcassonne',
  connTimer: null,
};
window.__carc = app; // handy for debugging and for the browser tests

// ---------------------------------------------------------------------------
// Storage that never throws (private mode, disabled storage).

const store = {
  get(k, area = localStorage) {
    try { return area.getItem(k); } catch { return null; }
  },
  set(k, v, area = localStorage) {
    try { area.setItem(k, v); } catch { /* ignore */ }
  },
  del(k, area = localStorage) {
    try { area.removeItem(k); } catch { /* ignore */ }
  },
};

// ---------------------------------------------------------------------------
// Language.

function applyStaticI18n() {
  document.documentElement.lang = getLanguage();
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll('[data-i18n-title]')) {
    e.title = t(e.dataset.i18nTitle);
    e.setAttribute('aria-label', t(e.dataset.i18nTitle));
  }
  app.baseTitle = t('app.title');
}

function setupLanguage() {
  const lang = setLanguage(pickLanguage(store.get('carc.lang'), navigator.languages ?? [navigator.language]));
  const sel = $('lang-select');
  sel.replaceChildren(...LANGUAGES.map((l) => h('option', { value: l.code, text: l.label })));
  sel.value = lang;
  sel.addEventListener('change', () => {
    setLanguage(sel.value);
    store.set('carc.lang', sel.value);
    applyStaticI18n();
    render();
    if (app.room) renderSoundToggle();
    updateConn(app.conn?.status ?? { state: 'idle' });
  });
  applyStaticI18n();
}

// ---------------------------------------------------------------------------
// Toasts.

function toast(text, kind = 'error', ms = 5000) {
  const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-testid': `toast-${kind}`, text });
  $('toasts').appendChild(el);
  setTimeout(() => el.classList.add('out'), ms - 400);
  setTimeout(() => el.remove(), ms);
}

// ---------------------------------------------------------------------------
// Start page.

function showHome() {
  $('view-home').hidden = false;
  const art = $('home-art');
  const scene = [
    [-1, -1, 'B', 0], [0, -1, 'E', 180], [1, -1, 'V', 180],
    [-1, 0, 'U', 0], [0, 0, 'D', 0], [1, 0, 'U', 0],
  ];
  let m = '';
  for (const [x, y, l, r] of scene) {
    const def = app.tiles[l];
    if (def) m += `<g transform="translate(${(x + 1) * 100} ${(y + 1) * 100})">${tileMarkup(def, r)}</g>`;
  }
  m += meepleMarkup(50, 152, 'blue', {}) + meepleMarkup(150, 40, 'red', {}) + meepleMarkup(270, 150, 'green', {})
    + meepleMarkup(250, 178, 'yellow', { farmer: true });
  art.innerHTML = `<svg viewBox="-4 -4 308 208">${m}</svg>`;
  const name = $('create-name');
  name.value = store.get('carc.name') ?? '';
  $('create-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const n = name.value.trim();
    if (!n) return;
    const btn = $('create-btn');
    btn.disabled = true;
    btn.textContent = t('home.creating');
    $('create-error').textContent = '';
    try {
      const res = await fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = await res.json();
      store.set('carc.name', n);
      store.set(PENDING_KEY(body.room), n, sessionStorage);
      location.assign(`/r/${encodeURIComponent(body.room)}`);
    } catch (e) {
      $('create-error').textContent = t('home.createFailed');
      btn.disabled = false;
      btn.textContent = t('home.create');
    }
  });
  name.focus();
}

// ---------------------------------------------------------------------------
// A room.

function inviteUrl() {
  return `${location.origin}/r/${app.room}`;
}

async function enterRoom(room) {
  app.room = room;
  $('view-room').hidden = false;
  document.body.classList.add('in-room');
  app.board = new Board($('board'), {
    onCellClick: selectCell,
    onSpotClick: chooseSpot,
    onGhostClick: rotate,
  });
  app.board.setCatalog(app.catalog);
  $('end-download').href = `/api/rooms/${encodeURIComponent(room)}/record`;
  $('end-download').setAttribute('download', `carcassonne-${room}.json`);
  bindRoomControls();
  $('sound-toggle').hidden = false;
  $('sound-toggle').addEventListener('click', () => {
    store.set('carc.sound', store.get('carc.sound') === '0' ? '1' : '0');
    renderSoundToggle();
  });
  renderSoundToggle();
  const bag = $('bag-details');
  const bagOpen = store.get('carc.bagOpen');
  bag.open = bagOpen === null ? window.innerWidth > 860 : bagOpen === '1';
  bag.addEventListener('toggle', () => store.set('carc.bagOpen', bag.open ? '1' : '0'));

  const token = store.get(TOKEN_KEY(room));
  const pending = store.get(PENDING_KEY(room), sessionStorage);
  if (token) {
    app.intent = { type: 'token', token };
    connect();
  } else if (pending) {
    store.del(PENDING_KEY(room), sessionStorage);
    app.intent = { type: 'name', name: pending };
    connect();
  } else {
    askName();
  }
}

async function askName(notice) {
  const modal = $('join-modal');
  const info = $('join-info');
  const noticeEl = $('join-notice');
  info.textContent = '';
  noticeEl.hidden = !notice;
  noticeEl.textContent = notice ?? '';
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(app.room)}`);
    if (res.status === 404) {
      $('missing-modal').hidden = false;
      return;
    }
    if (res.ok) {
      const r = await res.json();
      const n = r.players?.length ?? 0;
      if (r.phase === 'lobby' && n < 5) {
        info.textContent = t('join.lobby', { n });
        const names = (r.players ?? []).map((p) => String(p.name ?? '')).filter(Boolean);
        if (names.length) info.append(h('br'), h('span', { class: 'join-names', text: names.join(', ') }));
      }
      else if (r.phase === 'lobby') info.textContent = t('join.full');
      else if (r.phase === 'playing') info.textContent = t('join.started');
      else info.textContent = t('join.finished');
    }
  } catch { /* offline: the form still works once the server is back */ }
  modal.hidden = false;
  const input = $('join-name');
  input.value = store.get('carc.name') ?? '';
  input.focus();
}

function bindJoinForm() {
  $('join-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = $('join-name').value.trim();
    if (!name) return;
    store.set('carc.name', name);
    $('join-modal').hidden = true;
    app.intent = { type: 'name', name };
    connect();
  });
  $('join-watch').addEventListener('click', () => {
    $('join-modal').hidden = true;
    app.intent = { type: 'watch' };
    connect();
  });
}

function connect() {
  if (app.conn) {
    if (app.conn.status.state === 'open') sendIntent();
    else app.conn.retryNow();
    return;
  }
  app.conn = new Connection(wsUrl(location, app.room), {
    onOpen: sendIntent,
    onMessage,
    onStatus: (s) => {
      updateConn(s);
      if (s.state === 'waiting' && app.conn.attempt >= 3) checkRoomStillExists();
    },
  });
  app.conn.start();
}

// After a few failed reconnects, tell a deleted room from a server that is down.
async function checkRoomStillExists() {
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(app.room)}`);
    if (res.status === 404) {
      app.conn.stop();
      $('missing-modal').hidden = false;
    }
  } catch { /* the server is down: keep retrying */ }
}

function sendIntent() {
  const i = app.intent;
  if (!i || !app.conn) return;
  if (i.type === 'token') app.conn.send({ type: 'join', token: i.token });
  else if (i.type === 'name') app.conn.send({ type: 'join', name: i.name });
  else if (i.type === 'watch') app.conn.send({ type: 'watch' });
}

function onMessage(msg) {
  const prev = app.store.state;
  const r = reduce(app.store, msg);
  app.store = r.store;
  if (msg.type === 'welcome') {
    if (msg.seat !== null && msg.seat !== undefined && msg.token) {
      store.set(TOKEN_KEY(app.room), msg.token);
      app.intent = { type: 'token', token: msg.token };
    }
    // A spectator keeps its intent: a named late joiner comes back under its name (and
    // stays a spectator, since the game has started), a watcher watches again.
  }
  if (r.resync) app.conn?.send({ type: 'resync' });
  if (r.error) handleError(r.error);
  if (r.changed) onStateChanged(prev, msg.type === 'patch');
}

function handleError(err) {
  if (err.code === 'bad_token') {
    store.del(TOKEN_KEY(app.room));
    app.intent = null;
    app.store = initialStore();
    app.draft = null;
    render();
    askName(t('join.badToken'));
    return;
  }
  if (app.draft) app.draft.pending = false;
  if (err.code === 'stale_version') app.draft = null;
  toast(errorText(err));
  render();
}

function turnKey(state) {
  if (!state || state.phase !== 'playing' || !state.turn) return `${state?.phase}`;
  return `${state.turn.number}:${state.turn.seat}:${state.turn.tile}`;
}

function onStateChanged(prev, live) {
  const state = app.store.state;
  // A new turn (or anything that removed our options) drops the prepared placement.
  if (app.draft) {
    const still = app.draft.turnKey === turnKey(state) && isMyTurn(app.store) && legalAt(state, app.draft.x, app.draft.y).length;
    if (!still) app.draft = null;
  }
  if (!app.draft && app.zoomedForTurn) {
    app.zoomedForTurn = false;
    app.board.fitNow();
  }
  if (live && prev) {
    const scored = newEvents(prev, state).filter((ev) => ev.type === 'scored' && (ev.points ?? 0) > 0);
    scored.forEach((ev, i) => {
      const colors = (ev.seats ?? []).map((s) => state.players.find((p) => p.seat === s)?.color).filter(Boolean);
      // Several features scored at once (end of game) rise one after the other.
      setTimeout(() => app.board.flashScore(ev, colors), i * 450);
    });
  }
  if (state.phase !== 'finished') app.endDismissed = false;
  const mine = isMyTurn(app.store);
  if (mine && !app.wasMyTurn && live) chime();
  app.wasMyTurn = mine;
  render();
}

// A soft two-note chime when the turn comes to this player (can be switched off).
function chime() {
  if (store.get('carc.sound') === '0') return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = (app.audio ??= new Ctx());
    const now = ctx.currentTime;
    [659.25, 880].forEach((freq, i) => {
      const start = now + i * 0.16;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.12, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.4);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.45);
    });
  } catch { /* no audio: the banner and the title still tell */ }
}

function renderSoundToggle() {
  const on = store.get('carc.sound') !== '0';
  const btn = $('sound-toggle');
  btn.setAttribute('aria-pressed', on ? 'true' : 'false');
  btn.title = t(on ? 'sound.on' : 'sound.off');
  btn.setAttribute('aria-label', btn.title);
  btn.classList.toggle('off', !on);
}

// ---------------------------------------------------------------------------
// Preparing a turn.

function myPlayer() {
  return app.store.state?.players?.find((p) => p.seat === app.store.seat) ?? null;
}

function selectCell(x, y) {
  const state = app.store.state;
  if (!isMyTurn(app.store) || app.draft?.pending) return;
  if (app.draft && app.draft.x === x && app.draft.y === y) return rotate();
  const options = legalAt(state, x, y);
  if (!options.length) return;
  app.draft = { x, y, options, idx: 0, meeple: null, pending: false, turnKey: turnKey(state) };
  // On a touch screen, bring the tile close enough to tap its meeple spots.
  if (window.matchMedia?.('(pointer: coarse)').matches && app.board.view.scale < 0.9) {
    app.board.focusCell(x, y, 1.1);
    app.zoomedForTurn = true;
  }
  render();
}

// Arrow keys move the tile to the nearest legal cell in that direction.
function stepCell(key) {
  const cells = legalCells(app.store.state);
  if (!cells.length || app.draft?.pending) return;
  const from = app.draft ?? { x: 0, y: 0 };
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key] ?? [0, 0];
  let best = null;
  let bestCost = Infinity;
  for (const c of cells) {
    const vx = c.x - from.x;
    const vy = c.y - from.y;
    const along = vx * dx + vy * dy;
    if (app.draft && along <= 0) continue;
    const cost = app.draft ? along + 2 * Math.abs(vx * dy - vy * dx) : Math.abs(vx) + Math.abs(vy);
    if (cost < bestCost) {
      bestCost = cost;
      best = c;
    }
  }
  if (best) selectCell(best.x, best.y);
}

function rotate() {
  const d = app.draft;
  if (!d || d.pending || d.options.length < 2) return;
  d.idx = (d.idx + 1) % d.options.length;
  if (d.meeple && !d.options[d.idx].meeples.includes(d.meeple)) d.meeple = null;
  render();
}

function chooseSpot(port) {
  const d = app.draft;
  if (!d || d.pending) return;
  d.meeple = d.meeple === port ? null : port;
  render();
}

function noMeeple() {
  if (!app.draft || app.draft.pending) return;
  app.draft.meeple = null;
  render();
}

function cancelDraft() {
  if (!app.draft || app.draft.pending) return;
  app.draft = null;
  if (app.zoomedForTurn) {
    app.zoomedForTurn = false;
    app.board.fitNow();
  }
  render();
}

function confirmDraft() {
  const d = app.draft;
  if (!d || d.pending || !isMyTurn(app.store)) return;
  const entry = d.options[d.idx];
  const sent = app.conn?.send({
    type: 'play', version: app.store.version, x: d.x, y: d.y, rotation: entry.rotation, meeple: d.meeple ?? null,
  });
  if (sent) {
    d.pending = true;
    render();
  }
}

function bindRoomControls() {
  bindJoinForm();
  $('btn-rotate').addEventListener('click', rotate);
  $('btn-no-meeple').addEventListener('click', noMeeple);
  $('btn-cancel').addEventListener('click', cancelDraft);
  $('btn-confirm').addEventListener('click', confirmDraft);
  $('zoom-in').addEventListener('click', () => app.board.zoomBy(1.25));
  $('zoom-out').addEventListener('click', () => app.board.zoomBy(0.8));
  $('fit').addEventListener('click', () => app.board.fitNow());
  $('conn-retry').addEventListener('click', () => app.conn?.retryNow());
  $('end-close').addEventListener('click', () => {
    app.endDismissed = true;
    render();
  });
  document.addEventListener('keydown', (ev) => {
    const tag = ev.target?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if ((ev.key === 'Enter' || ev.key === ' ') && ev.target !== document.body) return; // the focused element's own key
    if (ev.key === 'r' || ev.key === 'R') { rotate(); ev.preventDefault(); }
    else if (ev.key === 'Enter' && app.draft) { confirmDraft(); ev.preventDefault(); }
    else if (ev.key === 'Escape') { cancelDraft(); }
    else if (ev.key.startsWith('Arrow') && isMyTurn(app.store)) { stepCell(ev.key); ev.preventDefault(); }
    else if (ev.key === 'f' || ev.key === 'F') { app.board.fitNow(); }
    else if (ev.key === '+' || ev.key === '=') { app.board.zoomBy(1.25); }
    else if (ev.key === '-') { app.board.zoomBy(0.8); }
  });
  const showLogCells = (ev) => {
    const li = ev.target.closest?.('li[data-cells]');
    if (!li) return;
    try {
      app.board.pulseCells(JSON.parse(li.dataset.cells));
    } catch { /* malformed: ignore */ }
  };
  $('log').addEventListener('click', showLogCells);
  $('log').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      showLogCells(ev);
    }
  });
  $('chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('chat-input');
    const text = input.value.trim();
    if (!text) return;
    if ([...text].length > 280) {
      toast(t('err.too_large'));
      return;
    }
    if (app.conn?.send({ type: 'chat', text })) input.value = '';
  });
  window.addEventListener('online', () => app.conn?.retryNow());
  document.addEventListener('visibilitychange', () => {
    updateTitle();
    if (!document.hidden && app.conn && app.conn.status.state === 'waiting') app.conn.retryNow();
  });
}

// ---------------------------------------------------------------------------
// Connection status.

function updateConn(status) {
  const box = $('conn');
  if (!app.room) return;
  $('view-room').dataset.conn = status.state;
  box.hidden = false;
  box.dataset.state = status.state;
  const text = $('conn-text');
  clearInterval(app.connTimer);
  $('conn-retry').hidden = status.state !== 'waiting' && status.reason !== 'replaced';
  $('conn-retry').textContent = status.reason === 'replaced' ? t('conn.takeBack') : t('conn.retry');
  if (status.state === 'open') text.textContent = t('conn.open');
  else if (status.state === 'connecting') text.textContent = t('conn.connecting');
  else if (status.state === 'waiting') {
    const tick = () => {
      text.textContent = t('conn.waiting', { s: Math.max(0, Math.ceil((status.retryAt - Date.now()) / 1000)) });
    };
    tick();
    app.connTimer = setInterval(tick, 500);
  } else text.textContent = status.reason === 'replaced' ? t('conn.replaced') : t('conn.closed');
}

// ---------------------------------------------------------------------------
// Rendering.

function updateTitle() {
  clearInterval(app.titleTimer);
  const mine = isMyTurn(app.store);
  if (mine && document.hidden) {
    let on = true;
    document.title = t('turn.titleCue');
    app.titleTimer = setInterval(() => {
      on = !on;
      document.title = on ? t('turn.titleCue') : app.baseTitle;
    }, 1200);
  } else {
    document.title = mine ? t('turn.titleCue') : app.baseTitle;
  }
}

function draftView() {
  const d = app.draft;
  const state = app.store.state;
  if (!d || !state?.turn) return null;
  const entry = d.options[d.idx];
  return {
    x: d.x, y: d.y, tile: state.turn.tile, rotation: entry.rotation,
    spots: d.pending ? (d.meeple ? [d.meeple] : []) : entry.meeples, meeple: d.meeple, color: myPlayer()?.color ?? 'black',
  };
}

function renderBanner(state) {
  const banner = $('turn-banner');
  banner.replaceChildren();
  banner.className = 'turn-banner';
  const mine = isMyTurn(app.store);
  banner.dataset.mine = mine ? '1' : '0';
  if (state.phase === 'playing' && state.turn) {
    const p = state.players.find((x) => x.seat === state.turn.seat);
    banner.append(h('span', { class: 'turn-no', text: t('turn.number', { n: state.turn.number }) }));
    if (mine) {
      banner.classList.add('mine');
      banner.append(h('strong', { text: app.draft ? t('turn.yoursPicked') : t('turn.yours') }));
    } else {
      const parts = t('turn.other', { name: '\u0000' }).split('\u0000');
      banner.append(h('span', {}, parts[0], nameSpan(p), parts[1] ?? ''));
      if (app.store.seat === null) banner.append(h('span', { class: 'muted spect', text: t('turn.spectating') }));
    }
  } else if (state.phase === 'finished') {
    banner.append(h('strong', { text: t('end.title') }));
    banner.append(h('button', { type: 'button', class: 'btn small', 'data-testid': 'show-end', onclick: () => { app.endDismissed = false; render(); }, text: t('end.show') }));
  } else if (state.phase === 'lobby') {
    banner.append(h('span', { text: t('lobby.title') }));
  }
}

function renderActionBar(state) {
  const bar = $('action-bar');
  const mine = isMyTurn(app.store);
  // The bar stays while the game runs, so the board does not jump at every turn.
  bar.hidden = state.phase !== 'playing' || !state.turn;
  if (bar.hidden) return;
  bar.classList.toggle('idle', !mine);
  bar.dataset.mine = mine ? '1' : '0';
  bar.dataset.pending = app.draft?.pending ? '1' : '0';
  const label = $('current-tile-label');
  if (!mine) {
    const p = state.players.find((x) => x.seat === state.turn.seat);
    label.textContent = t('action.beingPlaced');
    $('current-tile').innerHTML = app.tiles[state.turn.tile] ? tileMarkup(app.tiles[state.turn.tile], 0) : '';
    $('current-tile').dataset.tile = state.turn.tile;
    const parts = t('action.othersTurn', { name: '\u0000' }).split('\u0000');
    $('action-hint').replaceChildren(parts[0], nameSpan(p), parts[1] ?? '');
    return;
  }
  label.textContent = t('action.currentTile');
  const d = app.draft;
  const entry = d ? d.options[d.idx] : null;
  $('current-tile').innerHTML = app.tiles[state.turn.tile] ? tileMarkup(app.tiles[state.turn.tile], entry?.rotation ?? 0) : '';
  $('current-tile').dataset.tile = state.turn.tile;
  $('btn-rotate').disabled = !d || d.pending || d.options.length < 2;
  $('btn-no-meeple').disabled = !d || d.pending || !d.meeple;
  $('btn-cancel').disabled = !d || d.pending;
  $('btn-confirm').disabled = !d || d.pending;
  const hint = $('action-hint');
  if (!d) hint.textContent = t('action.pickCell');
  else if (d.meeple) {
    const kind = featureAt(app.tiles[state.turn.tile], entry.rotation, d.meeple)?.kind ?? 'road';
    hint.textContent = t('action.meepleChosen', { feature: t(`feature.${kind}`) });
  } else if ((myPlayer()?.meeples ?? 0) === 0) hint.textContent = t('action.noMeeplesLeft');
  else hint.textContent = t('action.noMeepleChosen');
  bar.dataset.pending = d?.pending ? '1' : '0';
}

function render() {
  const state = app.store.state;
  if (!app.room) return;
  const view = $('view-room');
  if (!state) {
    view.dataset.phase = 'none';
    return;
  }
  view.dataset.phase = state.phase;
  view.dataset.myTurn = isMyTurn(app.store) ? '1' : '0';
  view.dataset.seat = app.store.seat ?? '';
  view.dataset.version = app.store.version;

  // Lobby card.
  const lobby = $('lobby');
  lobby.hidden = state.phase !== 'lobby';
  if (state.phase === 'lobby') {
    renderLobby(lobby, state, {
      mySeat: app.store.seat,
      inviteUrl: inviteUrl(),
      onCopy: copyInvite,
      onShare: () => navigator.share?.({ title: t('app.title'), url: inviteUrl() }).catch(() => {}),
      onStart: () => app.conn?.send({ type: 'start' }),
    });
  }

  // Board.
  const mine = isMyTurn(app.store) && !app.draft?.pending;
  const cells = mine ? legalCells(state) : [];
  const b = boardBounds(state);
  const bounds = { minX: b.minX - 1, minY: b.minY - 1, maxX: b.maxX + 1, maxY: b.maxY + 1 };
  app.board.render({ state, legalCells: cells, draft: draftView(), bounds, previewTile: state.turn?.tile });

  renderBanner(state);
  renderActionBar(state);
  renderPlayers($('players'), state, app.store.seat, app.tiles);
  $('spectators').textContent = `· ${t('spectators', { n: state.spectators ?? 0 })}`;
  $('bag-panel').hidden = state.phase === 'lobby';
  renderBag($('bag-grid'), $('bag-left'), state, app.catalog);
  renderLog($('log'), state, app.tiles);
  renderChat($('chat'), state);

  const end = $('end-modal');
  const showEnd = state.phase === 'finished' && !!state.result && !app.endDismissed;
  end.hidden = !showEnd;
  if (showEnd) renderEnd(end, state, app.store.seat);
  updateTitle();
}

async function copyInvite(ev) {
  const btn = ev?.currentTarget;
  const url = inviteUrl();
  let ok = false;
  try {
    await navigator.clipboard.writeText(url);
    ok = true;
  } catch {
    const input = document.querySelector('[data-testid="invite-link"]');
    if (input) {
      input.select();
      try { ok = document.execCommand('copy'); } catch { ok = false; }
    }
  }
  if (btn && ok) {
    btn.textContent = t('lobby.copied');
    setTimeout(() => { btn.textContent = t('lobby.copy'); }, 1800);
  }
}

// ---------------------------------------------------------------------------
// Boot.

async function loadCatalog() {
  const res = await fetch('/api/tiles');
  if (!res.ok) throw new Error(`GET /api/tiles: HTTP ${res.status}`);
  const catalog = await res.json();
  // Tile letters end up in SVG ids and markup: keep only well-formed entries.
  catalog.tiles = (catalog.tiles ?? []).filter((tl) => /^[A-Z]$/.test(tl.letter) && Array.isArray(tl.features) && Array.isArray(tl.sides));
  app.catalog = catalog;
  app.tiles = Object.fromEntries(catalog.tiles.map((tl) => [tl.letter, tl]));
  const brand = app.tiles.D ? `<g id="brand-tile"><use href="#tile-D"/></g>` : '';
  $('defs-root').innerHTML = defsMarkup(catalog) + brand;
}

async function boot() {
  setupLanguage();
  // The catalog comes from the server; if it is restarting, try again with backoff.
  for (let attempt = 0; ; attempt++) {
    try {
      await loadCatalog();
      break;
    } catch (e) {
      if (attempt === 1) toast(t('home.createFailed'), 'error', 8000);
      await new Promise((r) => setTimeout(r, Math.min(15000, 500 * 2 ** attempt)));
    }
  }
  const m = ROOM_RE.exec(location.pathname);
  if (m) await enterRoom(m[1]);
  else showHome();
  document.body.dataset.ready = '1';
}

boot();
