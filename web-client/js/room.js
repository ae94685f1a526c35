// A room page (/r/<room>): the connection, the store of the server's state, the turn being
// prepared, and the rendering of the lobby, the board, the panels and the end screen.
// The server decides everything; this page shows its state and sends the player's choices.

import { initialStore, reduce, newEvents, isMyTurn, legalCells, boardBounds, playerBySeat } from './state.js';
import { Connection, wsUrl } from './net.js';
import { Board } from './board.js';
import { t, errorText } from './i18n.js';
import { renderPlayers, renderBag, renderLog, renderChat, renderEnd } from './ui.js';
import { renderLobby, copyInvite } from './lobby.js';
import {
  startDraft, rotateDraft, toggleMeeple, withoutMeeple, markPending, keepDraft, stepTarget, draftView, playMessage,
} from './draft.js';
import { roomKeyAction, describeKey } from './keys.js';
import { renderBanner, renderActionBar, TitleCue, ConnIndicator } from './roomview.js';
import { joinMessage, storedIntent, askName, bindJoinForm, showMissing } from './join.js';
import { $, toast } from './page.js';
import { KEYS, local } from './storage.js';
import { inviteUrl } from './routes.js';

export class RoomPage {
  constructor(room, { catalog, tiles }) {
    this.room = room;
    this.catalog = catalog;
    this.tiles = tiles;
    this.store = initialStore();
    this.conn = null;
    this.intent = null; // {type:'token', token} | {type:'name', name} | {type:'watch'}
    this.draft = null; // see draft.js
    this.board = null;
    this.endDismissed = false;
    this.zoomedForTurn = false;
    this.wasMyTurn = false;
    this.audio = null;
    this.title = new TitleCue();
    this.connIndicator = new ConnIndicator();
  }

  // -------------------------------------------------------------------------
  // Entering, joining and the connection.

  enter() {
    $('view-room').hidden = false;
    document.body.classList.add('in-room');
    this.board = new Board($('board'), {
      onCellClick: (x, y) => this.selectCell(x, y),
      onSpotClick: (port) => this.chooseSpot(port),
      onGhostClick: () => this.rotate(),
    });
    this.board.setCatalog(this.catalog);
    $('end-download').href = `/api/rooms/${encodeURIComponent(this.room)}/record`;
    $('end-download').setAttribute('download', `carcassonne-${this.room}.json`);
    this.bindControls();
    this.bindSoundToggle();
    const bag = $('bag-details');
    const bagOpen = local.get(KEYS.bagOpen);
    bag.open = bagOpen === null ? window.innerWidth > 860 : bagOpen === '1';
    bag.addEventListener('toggle', () => local.set(KEYS.bagOpen, bag.open ? '1' : '0'));

    this.intent = storedIntent(this.room);
    if (this.intent) this.connect();
    else askName(this.room);
  }

  inviteUrl() {
    return inviteUrl(location.origin, this.room);
  }

  connect() {
    if (this.conn) {
      if (this.conn.status.state === 'open') this.sendIntent();
      else this.conn.retryNow();
      return;
    }
    this.conn = new Connection(wsUrl(location, this.room), {
      onOpen: () => this.sendIntent(),
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (s) => {
        this.connIndicator.show(s);
        if (s.state === 'waiting' && this.conn.attempt >= 3) this.checkRoomStillExists();
      },
    });
    this.conn.start();
  }

  send(msg) {
    return this.conn?.send(msg) ?? false;
  }

  // After a few failed reconnects, tell a deleted room from a server that is down.
  async checkRoomStillExists() {
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(this.room)}`);
      if (res.status === 404) {
        this.conn.stop();
        showMissing();
      }
    } catch { /* the server is down: keep retrying */ }
  }

  sendIntent() {
    const msg = joinMessage(this.intent);
    if (msg) this.send(msg);
  }

  onMessage(msg) {
    const prev = this.store.state;
    const r = reduce(this.store, msg);
    this.store = r.store;
    // A seat's token is kept for coming back. A spectator keeps its intent: a named late
    // joiner comes back under its name (and stays a spectator, since the game has
    // started), a watcher watches again.
    if (r.token && this.store.seat !== null) {
      local.set(KEYS.token(this.room), r.token);
      this.intent = { type: 'token', token: r.token };
    }
    if (r.resync) this.send({ type: 'resync' });
    if (r.error) this.handleError(r.error);
    if (r.changed) this.onStateChanged(prev, msg.type === 'patch');
  }

  handleError(err) {
    if (err.code === 'bad_token') {
      local.del(KEYS.token(this.room));
      this.intent = null;
      this.store = initialStore();
      this.draft = null;
      this.render();
      askName(this.room, t('join.badToken'));
      return;
    }
    this.draft = err.code === 'stale_version' ? null : markPending(this.draft, false);
    toast(errorText(err));
    this.render();
  }

  onStateChanged(prev, live) {
    const state = this.store.state;
    // A new turn (or anything that removed our options) drops the prepared placement.
    this.draft = keepDraft(this.draft, this.store);
    if (!this.draft && this.zoomedForTurn) {
      this.zoomedForTurn = false;
      this.board.fitNow();
    }
    if (live && prev) {
      const scored = newEvents(prev, state).filter((ev) => ev.type === 'scored' && (ev.points ?? 0) > 0);
      scored.forEach((ev, i) => {
        const colors = (ev.seats ?? []).map((s) => playerBySeat(state, s)?.color).filter(Boolean);
        // Several features scored at once (end of game) rise one after the other.
        setTimeout(() => this.board.flashScore(ev, colors), i * 450);
      });
    }
    if (state.phase !== 'finished') this.endDismissed = false;
    const mine = isMyTurn(this.store);
    if (mine && !this.wasMyTurn && live) this.chime();
    this.wasMyTurn = mine;
    this.render();
  }

  // -------------------------------------------------------------------------
  // Sound.

  // A soft two-note chime when the turn comes to this player (can be switched off).
  chime() {
    if (local.get(KEYS.sound) === '0') return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      const ctx = (this.audio ??= new Ctx());
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

  bindSoundToggle() {
    $('sound-toggle').hidden = false;
    $('sound-toggle').addEventListener('click', () => {
      local.set(KEYS.sound, local.get(KEYS.sound) === '0' ? '1' : '0');
      this.renderSoundToggle();
    });
    this.renderSoundToggle();
  }

  renderSoundToggle() {
    const on = local.get(KEYS.sound) !== '0';
    const btn = $('sound-toggle');
    btn.setAttribute('aria-pressed', on ? 'true' : 'false');
    btn.title = t(on ? 'sound.on' : 'sound.off');
    btn.setAttribute('aria-label', btn.title);
    btn.classList.toggle('off', !on);
  }

  // -------------------------------------------------------------------------
  // Preparing a turn (the draft's logic is in draft.js).

  selectCell(x, y) {
    if (!isMyTurn(this.store) || this.draft?.pending) return;
    if (this.draft && this.draft.x === x && this.draft.y === y) return this.rotate();
    const d = startDraft(this.store.state, x, y);
    if (!d) return;
    this.draft = d;
    // On a touch screen, bring the tile close enough to tap its meeple spots.
    if (window.matchMedia?.('(pointer: coarse)').matches && this.board.view.scale < 0.9) {
      this.board.focusCell(x, y, 1.1);
      this.zoomedForTurn = true;
    }
    this.render();
  }

  // Arrow keys move the tile to the nearest legal cell in that direction.
  stepCell(key) {
    if (this.draft?.pending) return;
    const best = stepTarget(legalCells(this.store.state), this.draft, key);
    if (best) this.selectCell(best.x, best.y);
  }

  updateDraft(next) {
    if (next === this.draft) return;
    this.draft = next;
    this.render();
  }

  rotate() {
    this.updateDraft(rotateDraft(this.draft));
  }

  chooseSpot(port) {
    this.updateDraft(toggleMeeple(this.draft, port));
  }

  noMeeple() {
    this.updateDraft(withoutMeeple(this.draft));
  }

  cancelDraft() {
    if (!this.draft || this.draft.pending) return;
    this.draft = null;
    if (this.zoomedForTurn) {
      this.zoomedForTurn = false;
      this.board.fitNow();
    }
    this.render();
  }

  confirmDraft() {
    const d = this.draft;
    if (!d || d.pending || !isMyTurn(this.store)) return;
    if (this.send(playMessage(d, this.store.version))) this.updateDraft(markPending(d));
  }

  // -------------------------------------------------------------------------
  // Controls.

  onKey(ev) {
    const action = roomKeyAction(describeKey(ev, document.body), { hasDraft: !!this.draft, myTurn: isMyTurn(this.store) });
    switch (action) {
      case 'rotate': this.rotate(); ev.preventDefault(); break;
      case 'confirm': this.confirmDraft(); ev.preventDefault(); break;
      case 'cancel': this.cancelDraft(); break;
      case 'step': this.stepCell(ev.key); ev.preventDefault(); break;
      case 'fit': this.board.fitNow(); break;
      case 'zoomIn': this.board.zoomBy(1.25); break;
      case 'zoomOut': this.board.zoomBy(0.8); break;
      default: break;
    }
  }

  bindControls() {
    bindJoinForm((intent) => {
      this.intent = intent;
      this.connect();
    });
    $('btn-rotate').addEventListener('click', () => this.rotate());
    $('btn-no-meeple').addEventListener('click', () => this.noMeeple());
    $('btn-cancel').addEventListener('click', () => this.cancelDraft());
    $('btn-confirm').addEventListener('click', () => this.confirmDraft());
    $('zoom-in').addEventListener('click', () => this.board.zoomBy(1.25));
    $('zoom-out').addEventListener('click', () => this.board.zoomBy(0.8));
    $('fit').addEventListener('click', () => this.board.fitNow());
    $('conn-retry').addEventListener('click', () => this.conn?.retryNow());
    $('end-close').addEventListener('click', () => {
      this.endDismissed = true;
      this.render();
    });
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    const showLogCells = (ev) => {
      const li = ev.target.closest?.('li[data-cells]');
      if (!li) return;
      try {
        this.board.pulseCells(JSON.parse(li.dataset.cells));
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
      if (this.send({ type: 'chat', text })) input.value = '';
    });
    window.addEventListener('online', () => this.conn?.retryNow());
    document.addEventListener('visibilitychange', () => {
      this.title.update(isMyTurn(this.store));
      if (!document.hidden && this.conn && this.conn.status.state === 'waiting') this.conn.retryNow();
    });
  }

  /** The language changed: every text again. */
  relabel() {
    this.render();
    this.renderSoundToggle();
    this.connIndicator.show(this.conn?.status ?? { state: 'idle' });
  }

  // -------------------------------------------------------------------------
  // Rendering.

  render() {
    const { state } = this.store;
    const view = $('view-room');
    if (!state) {
      view.dataset.phase = 'none';
      return;
    }
    const mySeat = this.store.seat;
    view.dataset.phase = state.phase;
    view.dataset.myTurn = isMyTurn(this.store) ? '1' : '0';
    view.dataset.seat = mySeat ?? '';
    view.dataset.version = this.store.version;

    const lobby = $('lobby');
    lobby.hidden = state.phase !== 'lobby';
    if (state.phase === 'lobby') {
      renderLobby(lobby, state, {
        mySeat,
        inviteUrl: this.inviteUrl(),
        onCopy: (ev) => copyInvite(ev?.currentTarget, this.inviteUrl()),
        onShare: () => navigator.share?.({ title: t('app.title'), url: this.inviteUrl() }).catch(() => {}),
        onStart: () => this.send({ type: 'start' }),
      });
    }

    const mine = isMyTurn(this.store) && !this.draft?.pending;
    const b = boardBounds(state);
    this.board.render({
      state,
      legalCells: mine ? legalCells(state) : [],
      draft: draftView(this.draft, this.store),
      bounds: { minX: b.minX - 1, minY: b.minY - 1, maxX: b.maxX + 1, maxY: b.maxY + 1 },
      previewTile: state.turn?.tile,
    });

    const ctx = { state, store: this.store, draft: this.draft, tiles: this.tiles };
    renderBanner($('turn-banner'), { ...ctx, onShowEnd: () => { this.endDismissed = false; this.render(); } });
    renderActionBar(ctx);
    renderPlayers($('players'), state, mySeat, this.tiles);
    $('spectators').textContent = `· ${t('spectators', { n: state.spectators ?? 0 })}`;
    $('bag-panel').hidden = state.phase === 'lobby';
    renderBag($('bag-grid'), $('bag-left'), state, this.catalog);
    renderLog($('log'), state, this.tiles);
    renderChat($('chat'), state);

    const end = $('end-modal');
    const showEnd = state.phase === 'finished' && !!state.result && !this.endDismissed;
    end.hidden = !showEnd;
    if (showEnd) renderEnd(end, state, mySeat);
    this.title.update(isMyTurn(this.store));
  }
}
