// The room page's part in lobby life and rematches (docs/protocol.md): leaving and
// being removed (the kept token is forgotten, the page stays as a spectator and says why),
// the host hand-over, the lobby's host actions, the expansions and pace and a game against
// the computer set up from the start page, and "Play again" in the end dialog, which follows the server's `rematch`
// message into the new room with the new seat's token.

import { t, playerName } from '../i18n/i18n.js';
import { h } from './panels.js';
import { toast } from '../pages/page.js';
import { KEYS, local, session } from '../platform/storage.js';
import { forgetGame } from '../home/games.js';
import { roomPath, replayPath } from '../pages/routes.js';
import { seatChange, hostChange, freeSeatMessage, rematchOffer, soloStep, soloRematchReady, setupStep } from '../lobby/lobbylife.js';

const ROOM_ID = /^[A-Za-z0-9_-]{10,64}$/;

export class RoomLife {
  /** room: this room's id; send(msg) -> bool; askName(): the join dialog; go(path): navigation. */
  constructor(room, { send, askName, go = (path) => location.assign(path) }) {
    this.room = room;
    this.send = send;
    this.askName = askName;
    this.go = go;
    this.seatNotice = null; // why this page watches instead of playing
    this.kicked = false;
    this.soloSent = null; // the last solo set-up step sent (type:seats)
    this.rematchAsked = false;
    this.rematchOnArrival = false; // the room already named its rematch when this page joined
    this.offered = null; // a rematch seat kept for one click: {room}
    this.open = null; // whether the lobby is listed among the open games (the server's word)
    this.openSent = false;
    this.rated = null; // the game's rating changes as GET /api/rooms/<id>/rated read them (watchRated)
  }

  /** The server's word on the open flag: a welcome's `open`, or an {"type":"open"} frame. */
  onOpen(msg) {
    if (typeof msg?.open === 'boolean') this.open = msg.open;
    if (msg?.type === 'open') this.openAsked = false;
  }

  /**
   * The server's {"type":"rematch","room","token"}: the new seat's token is kept. The page
   * goes there when the rematch was made while it was here, or when it asked; a player
   * coming back to a room that already had its rematch is offered it (renderEnd).
   * Returns true when the page leaves.
   */
  onRematch(msg) {
    if (typeof msg.room !== 'string' || !ROOM_ID.test(msg.room) || typeof msg.token !== 'string' || !msg.token) return false;
    local.set(KEYS.token(msg.room), msg.token);
    if (this.rematchOnArrival && !this.rematchAsked) {
      this.offered = { room: msg.room };
      return false;
    }
    this.goToRematch(msg.room);
    return true;
  }

  goToRematch(room) {
    session.set(KEYS.rematchFrom(room), this.room);
    this.go(roomPath(room));
  }

  /**
   * After a message: what a welcome says about the seat this connection held. Returns the
   * new intent for the page's next (re)connection, or undefined to keep its own.
   */
  afterMessage(prevSeat, msg, store) {
    const change = seatChange(prevSeat, msg);
    if (msg.type === 'welcome') {
      this.rematchOnArrival = !!store.state?.rematch;
      if (store.seat !== null) this.seatNotice = null;
    }
    if (!change) return undefined;
    if (change.kind === 'moved') {
      toast(t('lobby.seatMoved', { n: change.seat + 1 }), 'info');
      return undefined;
    }
    // Left or removed: the token no longer works; this page goes on watching.
    forgetGame(local, this.room);
    this.kicked = change.kind === 'kicked';
    this.seatNotice = t(this.kicked ? 'lobby.kicked' : 'lobby.left');
    toast(this.seatNotice, this.kicked ? 'error' : 'info', 7000);
    return { type: 'watch' };
  }

  /** After the state changed: the host hand-over, the next solo set-up step. */
  afterState(prev, prevSeat, store) {
    const change = hostChange(prev, store.state, prevSeat, store.seat);
    if (change?.me) toast(t('lobby.nowHost'), 'info', 6000);
    else if (change) toast(t('lobby.newHost', { name: playerName(change.player) }), 'info');
    if (store.state?.phase === 'finished' && store.state.rematch) this.rematchAsked = false;
    this.solo(store);
  }

  solo(store) {
    // Quick play made this lobby: its host opens it once seated (docs/community.md).
    if (!this.openSent && session.get(KEYS.openOnJoin(this.room)) && store.state?.phase === 'lobby' &&
        store.seat !== null && store.state.players?.find((p) => p.seat === store.seat)?.host) {
      if (this.send({ type: 'open', open: true })) {
        this.openSent = true;
        session.del(KEYS.openOnJoin(this.room));
      }
    }
    // The start page's expansions and pace first, once (solo set-up waits for them).
    const setup = session.get(KEYS.setup(this.room));
    if (setup) {
      const step = setupStep(store.state, store.seat, setup);
      if (step === 'done') session.del(KEYS.setup(this.room));
      else {
        if (step && !this.setupSent && this.send(step)) this.setupSent = true;
        return;
      }
    }
    // "Play again" after a game against the computer: the same seats, started at once.
    if (!this.soloSent && session.get(KEYS.rematchFrom(this.room)) && soloRematchReady(store.state, store.seat)) {
      if (this.send({ type: 'start' })) this.soloSent = 'start';
      return;
    }
    const level = session.get(KEYS.solo(this.room));
    if (!level) return;
    const step = soloStep(store.state, store.seat, level);
    if (step === 'done') {
      session.del(KEYS.solo(this.room));
      return;
    }
    // Each step once: a step is known by its type and the number of seats it starts from.
    const key = step && `${step.type}:${store.state.players?.length ?? 0}`;
    if (step && key !== this.soloSent && this.send(step)) this.soloSent = key;
  }

  /** A refused request: the solo set-up or the rematch request stops (the page says why). */
  onError(err) {
    // A refused "open" (limit_reached): the lobby's box is drawn again, unticked (null and
    // false both mean closed; flipping between them makes the lobby card redraw).
    if (err?.code === 'limit_reached' && this.openAsked) {
      this.openAsked = false;
      if (this.open !== true) this.open = this.open === null ? false : null;
      return { ...err, code: 'open_limit' };
    }
    if (session.get(KEYS.solo(this.room))) session.del(KEYS.solo(this.room));
    if (session.get(KEYS.setup(this.room))) session.del(KEYS.setup(this.room));
    if (this.rematchAsked) this.rematchAsked = false;
    return err;
  }

  /** What the lobby card needs from lobby life (see lobby/lobby-card.js's renderLobby). */
  lobbyOptions(state) {
    const rematch = session.get(KEYS.rematchFrom(this.room));
    return {
      notice: this.seatNotice ?? (rematch ? t('lobby.rematchOf') : null),
      canTakeSeat: !this.kicked,
      onLeave: () => this.send({ type: 'leave' }),
      onFreeSeat: (seat) => {
        const msg = freeSeatMessage(state, seat);
        if (msg) this.send(msg);
      },
      onAddBot: (level) => this.send({ type: 'add_bot', level }),
      onSettings: (msg) => this.send(msg),
      onTakeSeat: () => this.askName(),
      open: this.open,
      onOpen: (open) => {
        this.openAsked = open;
        this.send({ type: 'open', open });
      },
    };
  }

  /**
   * Asks for the game's analysis, then again while it runs (the end dialog shows it). Just
   * after the last move the server may not have queued it yet (404): asked a few more times.
   */
  watchReview(rerender) {
    if (this.reviewWatched === this.room) return;
    this.reviewWatched = this.room;
    const room = this.room;
    let misses = 0;
    const ask = async () => {
      let a = null;
      try {
        const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/analysis`);
        a = res.ok ? await res.json() : null;
      } catch {
        a = null;
      }
      if (this.room !== room) return;
      this.review = a ? { status: a.status, eta_seconds: a.eta_seconds } : null;
      rerender();
      if (a && a.status !== 'done') setTimeout(ask, Math.min(10, Math.max(2, Number(a.eta_seconds) || 5)) * 1000);
      else if (!a && ++misses <= 5) setTimeout(ask, 2000 * misses);
    };
    ask();
  }

  /**
   * The game's rating changes (docs/community.md, "The end of a rated game") read again from
   * the server when the end dialog shows without the `rated` message (a reload, another
   * device): 404 while the game has none; asked a few more times just after the end, while
   * its ratings may still be being stored.
   */
  watchRated(rerender) {
    if (this.ratedWatched === this.room) return;
    this.ratedWatched = this.room;
    const room = this.room;
    let misses = 0;
    const ask = async () => {
      let rated = null;
      try {
        const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/rated`);
        rated = res.ok ? await res.json() : null;
      } catch {
        rated = null;
      }
      if (this.room !== room) return;
      if (rated) {
        this.rated = rated;
        rerender();
      } else if (++misses <= 3) setTimeout(ask, 2000 * misses);
    };
    ask();
  }

  askRematch() {
    if (this.send({ type: 'rematch' })) this.rematchAsked = true;
  }

  /** The end dialog's rematch slot (first in its row of buttons) and the replay link. */
  renderEnd(modal, state, mySeat, rerender) {
    const row = modal.querySelector('.row');
    if (!row) return;
    let slot = row.querySelector('#end-rematch');
    if (!slot) {
      slot = h('span', { id: 'end-rematch', class: 'end-rematch' });
      row.prepend(slot);
    }
    const offer = rematchOffer(state, mySeat);
    const parts = [];
    if (offer?.ask) {
      parts.push(h('button', {
        type: 'button', class: 'btn primary', 'data-testid': 'rematch', disabled: this.rematchAsked,
        onclick: () => {
          this.askRematch();
          rerender();
        },
        text: t(this.rematchAsked ? 'end.rematchWaiting' : 'end.rematch'),
      }));
    } else if (offer?.room && offer.join) {
      const join = () => (this.offered?.room === offer.room ? this.goToRematch(offer.room) : this.askRematch());
      parts.push(h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-join', onclick: join, text: t('end.rematchJoin') }));
    } else if (offer?.room) {
      parts.push(h('a', { class: 'btn primary', href: roomPath(offer.room), 'data-testid': 'rematch-watch', text: t('end.rematchWatch') }));
    }
    // The review (docs/analysis.md) is the replay with the analysis: once it is done, the replay's
    // link offers it; meanwhile a line says how long it takes (the dialog stays as tall).
    this.watchReview(rerender);
    this.watchRated(rerender);
    const review = this.review;
    const done = review?.status === 'done';
    parts.push(h('a', { class: 'btn', href: replayPath(this.room), 'data-testid': done ? 'end-review' : 'end-replay', text: t(done ? 'end.review' : 'end.replay') }));
    if (review?.status === 'queued' || review?.status === 'running') {
      parts.push(h('span', { class: 'end-review-wait', 'data-testid': 'end-review-wait', role: 'status',
        text: t(review.status === 'queued' ? 'review.queued' : 'review.running', { s: Number(review.eta_seconds) || 0 }) }));
    }
    slot.replaceChildren(...parts);
    let note = modal.querySelector('#end-rematch-note');
    if (offer?.room && !note) {
      note = h('p', { id: 'end-rematch-note', class: 'notice', 'data-testid': 'rematch-ready' });
      row.before(note);
    }
    if (note) {
      note.hidden = !offer?.room;
      note.textContent = t('end.rematchReady');
    }
  }
}
