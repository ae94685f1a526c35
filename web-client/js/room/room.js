// A room page (/r/<room>): the connection, the store of the server's state, the turn being
// prepared, and the rendering of the lobby, the board, the panels and the end screen.
// The server decides everything; this page shows its state and sends the player's choices.

import { initialStore, reduce, newEvents, isMyTurn, mustAct, turnStage, legalCells, boardBounds, playerBySeat } from '../game/state.js';
import { Connection, wsUrl } from '../platform/net.js';
import { Board } from '../board/board.js';
import { t, errorText } from '../i18n/i18n.js';
import { bindLog } from './panels.js';
import { PlayFeel } from './feel.js';
import { copyInvite } from '../lobby/lobby-card.js';
import { cycleMeeple, markPending, keepDraft, draftView, entryOf } from '../turn/draft.js';
import { pickedFigure } from '../game/figure-picker.js';
import { roomKeyAction, describeKey } from '../turn/keyboard.js';
import { renderActionBar, TitleCue, ConnIndicator } from './roomview.js';
import { RoomPanels } from './panel-updates.js';
import { joinMessage, storedIntent, askName, bindJoinForm, showMissing } from './join.js';
import { $, toast, bindSoundToggle, renderSoundToggle } from '../pages/page.js';
import { KEYS, local, viewMemory } from '../platform/storage.js';
import { inviteUrl } from '../pages/routes.js';
import { rememberGame } from '../home/games.js';
import { attachSeat } from '../platform/playerkey.js';
import { notifyMyTurn, resubscribe } from '../platform/notify.js';
import { RoomLife } from './roomlife.js';
import { describeSpots } from '../board/spots.js';
import { expansionsOf, gameCatalog, localGameCatalog } from '../tiles/game-tiles.js';
import { warmAnchors } from '../tiles/geometry.js';
import { expansionControls } from '../turn/expansion-controls.js';
import { hintButton } from '../turn/hint.js';
import { spotChoice, spotFigures } from '../game/figure-spots.js';
import { draftActions } from '../turn/roomdraft.js';
import { hintActions } from '../turn/roomhint.js';
import { notifyActions } from './roomnotify.js';

export class RoomPage {
  constructor(room, { catalog, tiles }) {
    this.room = room;
    this.catalog = catalog;
    this.tiles = tiles;
    this.store = initialStore();
    this.conn = null;
    this.intent = null; // {type:'token', token} | {type:'name', name} | {type:'watch'}
    this.draft = null; // see draft.js
    this.queued = null; // a draft confirmed while the connection was down
    this.hint = null; // the last {"type":"hint"} answer (hint.js), and whether one is asked
    this.asking = false;
    this.autoIds = new Set(); // events of moves the computer made for an away player
    this.board = null;
    this.endDismissed = false;
    this.feel = null; // sounds, the turn clock, absences, the turn view, the final scoring (feel.js)
    this.title = new TitleCue();
    this.connIndicator = new ConnIndicator();
    this.panels = new RoomPanels();
    this.live = false;
    // This browser gets this seat's pushes (set once a subscription was sent for it).
    this.notify = { subscribed: local.get(KEYS.notify(room)) === '1', outcome: null, asking: false };
    this.life = new RoomLife(room, { send: (msg) => this.send(msg), askName: () => askName(this.room) });
  }

  // -------------------------------------------------------------------------
  // Entering, joining and the connection.

  enter() {
    $('view-room').hidden = false;
    document.body.classList.add('in-room');
    this.board = new Board($('board'), {
      onCellClick: (x, y) => this.selectCell(x, y),
      // A spot of the hint's ghost takes the hinted move, like the rest of the ghost.
      onSpotClick: (port, figure) => (this.draft ? this.chooseSpot(spotChoice(port, figure)) : this.ghostClick()),
      onGhostClick: () => this.ghostClick(),
      onActionClick: (action) => this.boardAction(action), // an expansion's button on the board (turn/roomdraft.js)
      camera: 'keep',
      memory: viewMemory(this.room),
    });
    this.board.setCatalog(this.catalog);
    this.feel = new PlayFeel({
      board: this.board, tiles: () => this.tiles, soundOn: () => local.get(KEYS.sound) !== '0',
      playersEl: $('players'), rerender: () => this.render(),
    });
    $('end-download').href = `/api/rooms/${encodeURIComponent(this.room)}/record`;
    $('end-download').setAttribute('download', `carcassonne-${this.room}.json`);
    this.bindControls();
    bindSoundToggle();
    const bag = $('bag-details');
    const bagOpen = local.get(KEYS.bagOpen);
    // Open by default where there is room for it (not on a phone, nor a 768 px laptop).
    bag.open = bagOpen === null ? window.innerWidth > 860 && window.innerHeight >= 900 : bagOpen === '1';
    bag.addEventListener('toggle', () => local.set(KEYS.bagOpen, bag.open ? '1' : '0'));

    this.intent = storedIntent(this.room);
    if (this.intent) this.connect();
    else askName(this.room);
  }

  inviteUrl() {
    return inviteUrl(location.origin, this.room);
  }

  /** This game's tile set (its expansions'), from the server once fetched. */
  gameCatalog(state) {
    const exps = expansionsOf(state);
    const fetched = gameCatalog(exps, () => this.render());
    if (fetched && this.warmed !== fetched) {
      this.warmed = fetched;
      warmAnchors(fetched.tiles); // where figures stand on this game's tiles, ahead of drawing them
    }
    return fetched ?? localGameCatalog(this.catalog, exps);
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
    if (msg?.type === 'open') {
      // Whether the lobby is listed among the open games: beside the state, not in it.
      this.life.onOpen(msg);
      this.render();
      return;
    }
    if (msg?.type === 'rated') {
      // The game's rating changes, once stored (docs/community.md): shown on the end screen.
      this.rated = msg;
      this.render();
      return;
    }
    if (msg?.type === 'welcome') this.life.onOpen(msg);
    if (msg?.type === 'rematch') {
      // The new room of a rematch, with this player's seat in it.
      if (this.life.onRematch(msg)) this.conn?.stop();
      else this.render();
      return;
    }
    const prev = this.store.state;
    const prevSeat = this.store.seat;
    const r = reduce(this.store, msg);
    this.store = r.store;
    const intent = this.life.afterMessage(prevSeat, msg, this.store);
    if (intent) this.intent = intent;
    this.feel.onMessage(msg);
    // A seat's token is kept for coming back. A spectator keeps its intent: a named late
    // joiner comes back under its name (and stays a spectator, since the game has
    // started), a watcher watches again.
    if (r.token && this.store.seat !== null) {
      local.set(KEYS.token(this.room), r.token);
      this.intent = { type: 'token', token: r.token };
      rememberGame(local, this.room, { seat: this.store.seat, name: playerBySeat(this.store.state, this.store.seat)?.name });
      attachSeat(local, this.room, r.token).catch(() => {}); // "your games" on the player's other devices
      resubscribe((m) => this.send(m)).then((sent) => {
        if (!sent || this.notify.subscribed) return;
        this.notify.subscribed = true;
        local.set(KEYS.notify(this.room), '1');
        this.render();
      }).catch(() => {});
    }
    if (r.resync) this.send({ type: 'resync' });
    if (msg.type === 'hint' || r.error) this.asking = false;
    if (msg.type === 'hint') {
      this.hint = msg;
      // The hinted cell comes into view (at the same zoom) if it was outside.
      if (!this.draft && Number.isInteger(msg.move?.x) && Number.isInteger(msg.move?.y)) this.board.follow(msg.move.x, msg.move.y);
      this.render();
    }
    if (r.error) this.handleError(this.life.onError(r.error));
    if (r.changed) this.onStateChanged(prev, msg.type === 'patch', prevSeat);
    if (msg.type === 'welcome') this.sendQueued();
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

  onStateChanged(prev, live, prevSeat = this.store.seat) {
    const state = this.store.state;
    this.life.afterState(prev, prevSeat, this.store);
    // A new turn (or anything that removed our options) drops the prepared placement.
    this.draft = keepDraft(this.draft, this.store);
    this.restoreFromReload();
    if (live && prev) {
      // A move of a seat whose player was away was the computer's, for them.
      for (const ev of newEvents(prev, state)) {
        if ((ev.type === 'placed' || ev.type === 'discarded') && playerBySeat(prev, ev.seat)?.away) this.autoIds.add(ev.id);
      }
      // Points rise from what a move completed; the final scoring is played by feel.js.
      const scored = newEvents(prev, state).filter((ev) => ev.type === 'scored' && !ev.end && (ev.points ?? 0) > 0);
      scored.forEach((ev, i) => {
        const colors = (ev.seats ?? []).map((s) => playerBySeat(state, s)?.color).filter(Boolean);
        // Several features completed at once rise one after the other.
        setTimeout(() => this.board.flashScore(ev, colors), i * 450);
      });
    }
    if (state.phase !== 'finished') this.endDismissed = false;
    this.feel.onState(prev, state, { live, mine: mustAct(this.store) }); // the turn's sound, also for a step of a stage
    this.live = live;
    this.render();
  }

  // -------------------------------------------------------------------------
  // Controls.

  onKey(ev) {
    const action = roomKeyAction(describeKey(ev, document.body, $('board')), { hasDraft: !!this.draft, myTurn: isMyTurn(this.store) });
    switch (action) {
      case 'rotate': this.rotate(); ev.preventDefault(); break;
      case 'confirm': this.confirmDraft(); ev.preventDefault(); break;
      case 'meeple': this.updateDraft(cycleMeeple(this.draft)); ev.preventDefault(); break;
      case 'cancel': this.cancelDraft(); break;
      case 'step': this.stepCell(ev.key); ev.preventDefault(); break;
      case 'hint': this.askHint(); ev.preventDefault(); break;
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
    $('current-tile-btn').addEventListener('click', () => this.previewClick());
    $('btn-no-meeple').addEventListener('click', () => this.noMeeple());
    $('btn-cancel').addEventListener('click', () => this.cancelDraft());
    $('btn-confirm').addEventListener('click', () => this.confirmDraft());
    // A button clicked with the mouse or a finger gives the focus back, so that Enter then
    // confirms (turn/keyboard.js); one reached by the keyboard keeps it and Enter presses it.
    $('action-bar').addEventListener('click', (ev) => {
      const btn = ev.target instanceof Element ? ev.target.closest('button') : null;
      if (btn && ev.detail > 0) btn.blur();
    });
    $('zoom-in').addEventListener('click', () => this.board.zoomBy(1.25));
    $('zoom-out').addEventListener('click', () => this.board.zoomBy(0.8));
    $('fit').addEventListener('click', () => this.board.fitNow());
    $('conn-retry').addEventListener('click', () => this.conn?.retryNow());
    $('end-close').addEventListener('click', () => {
      this.endDismissed = true;
      this.render();
    });
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    bindLog($('log'), { onHover: (cells) => this.board.hoverCells(cells), onPick: (cells) => this.board.pulseCells(cells) });
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
      this.title.update(mustAct(this.store));
      if (!document.hidden && this.conn && this.conn.status.state === 'waiting') this.conn.retryNow();
    });
  }

  /** The language changed: every text again. */
  relabel() {
    this.panels.invalidate();
    this.render();
    renderSoundToggle();
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

    const mine = isMyTurn(this.store) && !this.draft?.pending;
    const notify = this.notifyState();
    const b = boardBounds(state);
    const dv = draftView(this.draft, this.store);
    if (dv) {
      dv.spots = describeSpots(state, this.tiles, dv, this.board.sizes().spotUnits, mySeat, spotFigures(dv.spots));
      dv.label = t('board.ghost', { x: dv.x, y: dv.y, deg: dv.rotation });
    }
    this.board.render({
      state,
      legalCells: mine ? legalCells(state) : [],
      draft: dv ?? this.hintGhost(state),
      bounds: { minX: b.minX - 1, minY: b.minY - 1, maxX: b.maxX + 1, maxY: b.maxY + 1 },
      previewTile: state.turn?.tile,
      cellLabel: (c) => t('board.cell', { x: c.x, y: c.y }),
      // What an expansion draws over the figures (expansions/registry.js: boardLayer).
      layerCtx: { seat: mySeat, entry: mine && this.draft ? entryOf(this.draft) : null, choice: this.draft?.meeple ?? null, turn: state.turn ?? null, figure: mine && this.draft ? pickedFigure(entryOf(this.draft), this.draft) : null },
    });

    renderActionBar({ state, store: this.store, draft: this.draft, tiles: this.tiles, spots: dv?.spots, queued: !!this.queued });
    this.panels.render({
      state, store: this.store, draft: this.draft, tiles: this.tiles, catalog: this.gameCatalog(state), feel: this.feel, live: this.live, autoIds: this.autoIds, queued: !!this.queued,
      lobby: {
        mySeat,
        inviteUrl: this.inviteUrl(),
        onCopy: (ev) => copyInvite(ev?.currentTarget, this.inviteUrl()),
        onShare: () => navigator.share?.({ title: t('app.title'), url: this.inviteUrl() }).catch(() => {}),
        onStart: () => this.send({ type: 'start' }),
        bagSize: this.gameCatalog(state).bag ?? null,
        notify, onNotify: () => this.enableNotify(),
        ...this.life.lobbyOptions(state),
      },
      onShowEnd: () => {
        this.feel.skipFinale();
        this.endDismissed = false;
        this.render();
      },
      // The end dialog waits for the final scoring played on the board.
      end: {
        show: state.phase === 'finished' && !!state.result && !this.endDismissed && !this.feel.finalScoring,
        life: this.life, rerender: () => this.render(), rated: this.rated ?? this.life.rated ?? null,
      },
    });
    expansionControls($('action-bar'), { state, store: this.store, draft: this.draft, onChoose: (c) => this.chooseSpot(c), onDraft: (d) => this.updateDraft(d) });
    hintButton($('action-bar'), { state, store: this.store, asking: this.asking, onAsk: () => this.askHint(), why: this.hintWhy(state) });
    this.live = false;
    // The player's turn, or their step of a stage of another's turn (docs/web-client-expansions.md).
    this.title.update(mustAct(this.store));
    notifyMyTurn(this.wasMine, mustAct(this.store));
    this.wasMine = mustAct(this.store);
    this.renderNotify(notify, state.phase);
    // Last, once the panels around the board have their size: a view to play in.
    const stage = turnStage(state); // the player's step of another's turn: its cells in view too
    if (this.feel.afterRender(state, isMyTurn(this.store), stage?.seat === mySeat ? stage : null)) this.boardIntoViewSoon();
    this.keepForReload();
  }

  /**
   * The player's turn starts: a phone scrolled down to the chat or the log goes back to the
   * board (not while a message is being typed), and the chat's keyboard goes away.
   */
  boardIntoViewSoon() {
    // Just before the next frame, when the page lays out anyway (reading the board's box now
    // would lay it out a second time).
    if (typeof requestAnimationFrame !== 'function') return this.boardIntoView();
    cancelAnimationFrame(this.intoViewFrame ?? 0);
    this.intoViewFrame = requestAnimationFrame(() => this.boardIntoView());
  }

  boardIntoView() {
    const input = $('chat-input');
    if (document.activeElement === input) {
      if (input.value.trim()) return;
      input.blur();
    }
    const area = $('board').closest('.board-area');
    const r = area?.getBoundingClientRect();
    if (!r || (r.top >= -1 && r.bottom <= window.innerHeight + 1)) return;
    const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    area.scrollIntoView({ block: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
  }
}

// Preparing a turn: roomdraft.js; the hint: roomhint.js; "tell me when it is my turn": roomnotify.js.
Object.assign(RoomPage.prototype, draftActions, hintActions, notifyActions);
