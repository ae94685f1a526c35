// "Your games" on the start page: each room this browser holds a seat in, with its players,
// its phase and whose turn it is, one click back into it (or its replay), and "forget".
// Names are user text: textContent only.

import { t, playerName } from '../i18n/i18n.js';
import { h, add } from '../room/panels.js';
import { $ } from '../pages/page.js';
import { local } from '../platform/storage.js';
import { knownGames, forgetGame, describeGame, nextSeat, orderGames, waitingCount, timeLeft } from './games.js';
import { syncFromKey, transferLink, revokeKey, currentKey } from '../platform/playerkey.js';
import { showWaiting } from './waiting.js';
import { roomPath, replayPath } from '../pages/routes.js';

const MAX_LISTED = 20;

/** What the server says about one game: GET /api/rooms/<id>, and the record for whose turn. */
async function fetchGame(game) {
  let res;
  try {
    res = await fetch(`/api/rooms/${encodeURIComponent(game.room)}`);
  } catch {
    return describeGame(game, null, { offline: true });
  }
  if (res.status === 404) return describeGame(game, null);
  if (!res.ok) return describeGame(game, null, { offline: true });
  const info = await res.json().catch(() => null);
  let turnSeat = null;
  if (info?.phase === 'playing' && !Number.isInteger(info.turn?.seat)) {
    try {
      const rec = await fetch(`/api/rooms/${encodeURIComponent(game.room)}/record`);
      if (rec.ok) turnSeat = nextSeat(await rec.json());
    } catch { /* whose turn stays unsaid */ }
  }
  return describeGame(game, info, { turnSeat });
}

function nameList(players) {
  const span = h('span', { class: 'game-players' });
  players.forEach((p, i) => {
    if (i) span.append(', ');
    span.append(h('span', { class: `pname${p.me ? ' me' : ''}`, text: playerName(p) }));
  });
  return span;
}

function statusLine(line) {
  if (line.state === 'gone') return h('span', { class: 'game-status gone', text: t('games.gone') });
  if (line.state === 'offline') return h('span', { class: 'game-status', text: t('games.offline') });
  const parts = [h('span', { class: `game-phase phase-${line.phase}`, text: t(`games.phase.${line.phase ?? 'lobby'}`) })];
  if (line.mine) {
    parts.push(h('strong', { class: 'game-turn mine', 'data-testid': 'game-your-turn', text: t('games.yourTurn') }));
    if (line.turnBased && line.deadline !== null) {
      const [key, params] = timeLeft(line.deadline - Date.now());
      parts.push(h('span', { class: 'game-bank', 'data-testid': 'game-bank', text: t('tb.bankLeft', { time: t(key, params) }) }));
    }
  } else if (line.turnSeat !== null) {
    const p = line.players.find((x) => x.seat === line.turnSeat);
    if (p) parts.push(h('span', { class: 'game-turn', text: t('games.turnOf', { name: playerName(p) }) }));
  }
  const out = h('span', { class: 'game-status' });
  parts.forEach((p, i) => add(out, i ? ' · ' : null, p));
  return out;
}

function itemFor(game, line, onForget) {
  const li = h('li', {
    class: `game-item${line?.mine ? ' mine' : ''}`, 'data-testid': 'game-item', 'data-room': game.room,
    'data-phase': line?.phase ?? (line ? line.state : 'loading'),
  });
  const title = h('a', { class: 'game-title', href: roomPath(game.room), 'data-testid': 'game-open' });
  if (line?.players.length) title.append(nameList(line.players));
  else title.textContent = t('games.unnamed', { id: game.room.slice(0, 8) });
  add(li,
    h('div', { class: 'game-main' },
      title,
      line ? statusLine(line) : h('span', { class: 'game-status muted', text: '…' }),
      game.name ? h('span', { class: 'game-me muted', text: t('games.seatedAs', { name: game.name }) }) : null),
    h('div', { class: 'game-actions' },
      line?.replay ? h('a', { class: 'btn small', href: replayPath(game.room), 'data-testid': 'game-replay', text: t('games.replay') }) : null,
      line?.state === 'ok' && !line.replay
        ? h('a', { class: `btn small${line.mine ? ' primary' : ''}`, href: roomPath(game.room), text: t('games.open') }) : null,
      h('button', {
        type: 'button', class: 'btn small', 'data-testid': 'game-forget', title: t('games.forgetTitle'),
        'aria-label': `${t('games.forget')}: ${game.room}`, onclick: () => onForget(game.room), text: t('games.forget'),
      })));
  return li;
}

export class YourGames {
  constructor(store = local) {
    this.store = store;
    this.lines = new Map(); // room -> described line
  }

  /** Lists the games now, then fills in what the server says about each. */
  async show() {
    // The seats of the player key (another device's too) join this browser's first.
    try { await syncFromKey(this.store); } catch { /* offline: this browser's own list */ }
    const games = knownGames(this.store).slice(0, MAX_LISTED);
    this.games = games;
    this.render();
    await Promise.all(games.map(async (g) => {
      this.lines.set(g.room, await fetchGame(g));
      this.render();
    }));
    $('your-games').dataset.loaded = '1';
  }

  forget(room) {
    forgetGame(this.store, room);
    this.games = this.games.filter((g) => g.room !== room);
    this.lines.delete(room);
    this.render();
  }

  render() {
    const section = $('your-games');
    section.hidden = !this.games.length;
    const ordered = orderGames(this.games, this.lines);
    $('games-list').replaceChildren(...ordered.map((g) => itemFor(g, this.lines.get(g.room), (room) => this.forget(room))));
    showWaiting(waitingCount(this.lines));
    this.renderTransfer(section);
  }

  // "Open your games on another device": the transfer link and its QR code (drawn by the
  // server with libqrencode), and revoking the key.
  renderTransfer(section) {
    let box = section.querySelector('.key-transfer');
    if (!currentKey(this.store)) { box?.remove(); return; }
    if (box) return;
    const out = h('div', { class: 'key-out', 'data-testid': 'key-out' });
    const show = h('button', { type: 'button', class: 'btn small', 'data-testid': 'key-transfer', text: t('keys.transfer') });
    const revoke = h('button', { type: 'button', class: 'btn small', 'data-testid': 'key-revoke', text: t('keys.revoke') });
    show.addEventListener('click', async () => {
      const r = await transferLink(this.store).catch(() => null);
      if (!r) { out.textContent = t('keys.failed'); return; }
      const qr = h('div', { class: 'key-qr', 'data-testid': 'key-qr' });
      qr.innerHTML = r.svg; // the server's SVG: paths only, no user text
      out.replaceChildren(qr, h('p', { class: 'muted', text: t('keys.transferHint') }),
        h('input', { class: 'key-link', 'data-testid': 'key-link', readonly: 'readonly', value: r.link }));
    });
    revoke.addEventListener('click', async () => {
      out.textContent = (await revokeKey(this.store).catch(() => false)) ? t('keys.revoked') : t('keys.failed');
      show.remove();
      revoke.remove();
      box.querySelector('.key-revoke-hint')?.remove();
    });
    box = h('div', { class: 'key-transfer' }, show, revoke,
      h('p', { class: 'muted key-revoke-hint', 'data-testid': 'key-revoke-hint', text: t('keys.revokeHint') }), out);
    section.append(box);
  }

  relabel() {
    if (this.games) this.render();
  }
}
