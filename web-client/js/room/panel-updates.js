// The room's panels drawn by what changed: each part (lobby card, banner, players, bag,
// log, chat, end dialog) has a key made of what it shows, and is redrawn only when its key
// changes. A patch, a click or a clock tick that leaves a part alone leaves its focus, its
// text selection and its scroll position alone too. Also the spoken announcements: each
// new log line in words, and the start of the player's turn, through a live region.

import { t, getLanguage } from '../i18n/i18n.js';
import { renderPlayers, renderBag, renderLog, renderChat, renderEnd } from './panels.js';
import { renderLobby } from '../lobby/lobby-card.js';
import { renderBanner } from './roomview.js';
import { renderRated } from '../end/rated.js';
import { isMyTurn, legalCells, turnStage } from '../game/state.js';
import { $ } from '../pages/page.js';
import { extraKey, extraAnnouncement } from '../turn/extra-turn.js';

// How often the time an away player has been gone is said again (feel.js redraws as often).
const AWAY_STEP_MS = 5000;

export class RoomPanels {
  constructor() {
    this.keys = {};
    this.logLines = null; // how many log lines were drawn (null before the first state)
    this.wasMine = false;
  }

  /** Runs draw() when `key` differs from the part's last one; returns whether it drew. */
  part(name, key, draw) {
    const k = JSON.stringify([getLanguage(), key]);
    if (this.keys[name] === k) return false;
    this.keys[name] = k;
    draw();
    return true;
  }

  /** Forgets every key: the next render draws everything (the language changed). */
  invalidate() {
    this.keys = {};
  }

  /**
   * ctx: {state, store, draft, tiles, catalog, feel, lobby: renderLobby's options, end:
   * {show, mySeat, life, rerender}, onShowEnd, live: the change came as a patch}.
   */
  render(ctx) {
    const { state, store, feel } = ctx;
    const mySeat = store.seat;
    const players = state.players ?? [];
    const away = Object.keys(feel.awaySince ?? {}).length ? Math.floor(Date.now() / AWAY_STEP_MS) : 0;
    const mine = isMyTurn(store);

    const lobby = $('lobby');
    lobby.hidden = state.phase !== 'lobby';
    if (state.phase === 'lobby') {
      const o = ctx.lobby;
      this.part('lobby', [players, state.settings, state.spectators, mySeat, o.notice, o.canTakeSeat, o.bagSize, o.notify, o.open], () => renderLobby(lobby, state, o));
    }
    const banner = [state.phase, state.turn?.number, state.turn?.seat, state.turn?.extra, turnStage(state), mine, !!ctx.draft, ctx.queued, players.map((p) => [p.connected, p.bot, p.away, p.name]), away, feel.finalScoring, mySeat];
    this.part('banner', banner, () => renderBanner($('turn-banner'), {
      state, store, draft: ctx.draft, tiles: ctx.tiles, awaySince: feel.awaySince, finalScoring: feel.finalScoring, onShowEnd: ctx.onShowEnd, queued: ctx.queued,
    }));
    this.part('players', [players, state.phase, state.turn?.seat, mySeat, away, feel.clockMs === null], () => {
      renderPlayers($('players'), state, mySeat, ctx.tiles, { awaySince: feel.awaySince, clockMs: feel.clockMs });
    });
    this.part('spectators', state.spectators ?? 0, () => {
      $('spectators').textContent = `· ${t('spectators', { n: state.spectators ?? 0 })}`;
    });
    $('bag-panel').hidden = state.phase === 'lobby';
    this.part('bag', [state.bag ?? null, ctx.catalog?.tiles?.length ?? 0, ctx.catalog?.bag ?? null], () => renderBag($('bag-grid'), $('bag-left'), state, ctx.catalog));
    const events = state.events ?? [];
    const names = players.map((p) => [p.name, p.color]);
    const logDrawn = this.part('log', [events.length, events.at(-1)?.id, names], () => renderLog($('log'), state, ctx.tiles, { autoIds: ctx.autoIds }));
    const chat = state.chat ?? [];
    this.part('chat', [chat.length, chat.at(-1), names], () => renderChat($('chat'), state));

    const end = $('end-modal');
    end.hidden = !ctx.end.show;
    if (ctx.end.show) {
      const life = ctx.end.life;
      this.part('end', [state.result, state.rematch, mySeat, life.rematchAsked, life.offered, names, life.review?.status, life.review?.eta_seconds, ctx.end.rated], () => {
        renderEnd(end, state, mySeat);
        renderRated($('end-ratings'), state, ctx.end.rated, mySeat);
        life.renderEnd(end, state, mySeat, ctx.end.rerender);
      });
    } else delete this.keys.end;

    this.announce(ctx, logDrawn, mine);
  }

  /** New log lines in words (live changes only), and the start of the player's turn. */
  announce(ctx, logDrawn, mine) {
    const said = [];
    if (logDrawn) {
      const lines = [...$('log').children];
      if (this.logLines !== null && ctx.live && lines.length > this.logLines) {
        for (const li of lines.slice(this.logLines)) said.push(li.textContent.trim());
      }
      this.logLines = lines.length;
    }
    if (mine && !this.wasMine && ctx.state.phase === 'playing') said.push(t('announce.yourTurn', { n: legalCells(ctx.state).length }));
    this.wasMine = mine;
    // An extra part of the turn (turn/extra-turn.js): said to everybody, in its own words to its player.
    const extra = extraAnnouncement(this.extraKey, ctx.state, ctx.store.seat);
    if (extra) said.push(extra);
    this.extraKey = extraKey(ctx.state);
    if (said.length) this.say(said.join(' '));
  }

  /** Puts text into the live region (emptied first, so that the same words are said again). */
  say(text) {
    const box = $('announce');
    if (!box) return;
    box.textContent = '';
    clearTimeout(this.sayTimer);
    this.sayTimer = setTimeout(() => {
      box.textContent = text;
    }, 60);
  }
}
