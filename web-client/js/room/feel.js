// What the game screen does around the state: the sounds, the turn clock, how long absent
// players have been gone, the view at the start of the player's turn, and the final
// scoring played on the board before the end dialog opens. The page calls it from its
// message and render paths; it never decides anything about the game.

import { Sounds } from '../platform/sound.js';
import { TurnTicker, trackAway } from '../game/clock.js';
import { legalCells, newEvents } from '../game/state.js';
import { narrate, finalScorings } from '../game/narrate.js';
import { updateClock } from './panels.js';

const AWAY_REFRESH_MS = 5000;

export class PlayFeel {
  /**
   * board: the Board; tiles(): {letter: catalog tile}; soundOn(): the mute button;
   * playersEl: the players list (its countdown is updated in place); rerender(): redraw.
   */
  constructor({ board, tiles, soundOn, playersEl, rerender }) {
    Object.assign(this, { board, tiles, playersEl, rerender });
    this.sounds = new Sounds(soundOn);
    this.awaySince = {};
    this.clockMs = null;
    this.wasMine = false;
    this.turnShown = null; // the turn whose view was set up
    this.finale = null; // the final scoring being played, {skip, done}
    this.seenState = false;
    this.ticker = new TurnTicker({
      onTick: (ms) => {
        this.clockMs = ms;
        if (this.playersEl) updateClock(this.playersEl, ms);
      },
      onWarn: () => this.sounds.play('warn'),
    });
    this.awayTimer = setInterval(() => {
      if (Object.keys(this.awaySince).length) this.rerender();
    }, AWAY_REFRESH_MS);
  }

  /** Every server message (welcome and state carry server_time, docs/protocol.md). */
  onMessage(msg) {
    if ((msg?.type === 'welcome' || msg?.type === 'state') && Number.isFinite(msg.server_time)) this.ticker.sync(msg.server_time);
  }

  /**
   * The state changed. live: it came as a patch (not a welcome, a resync or a reload);
   * mine: the page's seat has the turn. Call before rendering.
   */
  onState(prev, state, { live, mine }) {
    const now = Date.now();
    this.awaySince = trackAway(this.awaySince, state, now, !this.seenState);
    this.seenState = true;
    this.ticker.update(state, mine);
    if (live && prev) {
      const fresh = newEvents(prev, state);
      if (fresh.some((e) => e.type === 'placed')) this.sounds.play('place');
      if (fresh.some((e) => e.type === 'scored' && !e.end && e.points > 0)) setTimeout(() => this.sounds.play('score'), 180);
      if (prev.phase === 'playing' && state.phase === 'finished') this.startFinale(state);
    }
    if (mine && !this.wasMine && live) this.sounds.play('turn');
    this.wasMine = mine;
    if (state.phase !== 'finished' && this.finale) this.finale.skip();
  }

  /** After the board was drawn: at the start of the player's turn, a view to play in; true then. */
  afterRender(state, mine, myStage = null) {
    // The player's step of a stage of another's turn (docs/web-client-expansions.md): its cells, the same way.
    const cells = mine ? legalCells(state) : myStage?.cells ?? null;
    if (!cells || state.phase !== 'playing' || !state.turn) {
      if (this.turnShown !== null) this.board.endTurn();
      this.turnShown = null;
      return false;
    }
    const key = mine ? `${state.turn.number}:${state.turn.seat}` : `${state.turn.number}:stage:${JSON.stringify(myStage.params ?? null)}`;
    if (this.turnShown === key) return false;
    this.turnShown = key;
    this.board.showTurn(cells);
    return true;
  }

  startFinale(state) {
    const { map } = narrate(state.events, this.tiles(), state.board?.[0]);
    const items = finalScorings(state.events, map);
    const colorsOf = (seats) => seats.map((s) => state.players.find((p) => p.seat === s)?.color).filter(Boolean);
    this.board.fitNow();
    const run = this.board.playFinalScoring(items, colorsOf, { onStep: () => this.sounds.play('score') });
    this.finale = run;
    run.done.then(() => {
      if (this.finale === run) this.finale = null;
      this.rerender();
    });
  }

  /** Whether the final scoring is being played (the end dialog waits for it). */
  get finalScoring() {
    return this.finale !== null;
  }

  /** Ends the final scoring at once (the player asked for the scores). */
  skipFinale() {
    this.finale?.skip();
  }

  stop() {
    this.ticker.stop();
    clearInterval(this.awayTimer);
    this.finale?.skip();
  }
}
