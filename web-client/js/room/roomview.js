// The room's status lines: the turn banner, the action bar under the board, the page
// title that calls a player back to their turn, and the connection indicator.
// Each takes what it shows as arguments; none keeps game state.

import { t } from '../i18n/i18n.js';
import { h, nameSpan } from './panels.js';
import { isMyTurn, playerBySeat, turnStage } from '../game/state.js';
import { tileMarkup } from '../tiles/tileart.js';
import { choiceHint } from '../turn/choice-hint.js';
import { entryChoices, spotChoice } from '../game/figure-spots.js';
import { ask } from '../expansions/registry.js';
import { entryOf, canRotate } from '../turn/draft.js';
import { $ } from '../pages/page.js';
import { presence, awayFor } from '../game/clock.js';
import { isExtra } from '../turn/extra-turn.js';

/** Splits a translated text around its {name} and puts the player's name span there. */
function withName(key, player, params = {}) {
  const parts = t(key, { ...params, name: '\u0000' }).split('\u0000');
  return [parts[0], nameSpan(player), parts[1] ?? ''];
}

/**
 * The turn banner: one line of fixed height, whatever it says. awaySince: when each
 * absent seat dropped (clock.js trackAway); finalScoring: the final scoring is being
 * played on the board.
 */
export function renderBanner(banner, { state, store, draft, onShowEnd, awaySince = {}, finalScoring = false, queued = false, now = Date.now() }) {
  banner.replaceChildren();
  banner.className = 'turn-banner';
  const mine = isMyTurn(store);
  banner.dataset.mine = mine ? '1' : '0';
  if (state.phase === 'playing' && state.turn) {
    banner.append(h('span', { class: 'turn-no', text: t('turn.number', { n: state.turn.number }) }));
    const stage = turnStage(state); // an expansion's stage of the turn (docs/web-client-expansions.md): whose step it is
    if (stage) {
      const me = store.seat !== null && stage.seat === store.seat;
      banner.dataset.mine = me ? '1' : '0';
      if (me) banner.classList.add('mine');
      banner.append(me ? h('strong', { 'data-testid': 'stage-mine', text: t(stage.mineKey, stage.params) })
        : h('span', { 'data-testid': 'banner-stage', 'data-seat': stage.seat }, ...withName(stage.otherKey, playerBySeat(state, stage.seat), stage.params)));
      return;
    }
    if (mine) {
      banner.classList.add('mine');
      // A move confirmed while the connection is down: the banner says it waits.
      const extra = isExtra(state) && !queued; // an extra part of the turn (turn/extra-turn.js)
      banner.append(h('strong', { 'data-testid': extra ? 'extra-mine' : null, text: queued ? t('offline.banner') : extra ? t('extra.mine') : draft ? t('turn.yoursPicked') : t('turn.yours') }));
      return;
    }
    const p = playerBySeat(state, state.turn.seat);
    const kind = presence(p);
    const line = h('span', { 'data-testid': 'banner-turn', 'data-presence': kind ?? '', 'data-extra': isExtra(state) ? '1' : '0' });
    if (isExtra(state)) line.append(...withName('extra.other', p));
    else if (kind === 'auto') line.append(...withName('turn.otherAuto', p));
    else if (kind === 'bot') line.append(...withName('turn.otherBot', p));
    else if (kind === 'away') {
      const d = awayFor(awaySince?.[p.seat], now);
      line.append(...(d ? withName('turn.otherAway', p, { time: t(`time.${d.unit}`, { n: d.n }) }) : withName('turn.otherAwayNoTime', p)));
      line.classList.add('away-note');
    } else line.append(...withName('turn.other', p));
    banner.append(line);
    if (store.seat === null) banner.append(h('span', { class: 'muted spect', text: t('turn.spectating') }));
  } else if (state.phase === 'finished') {
    // A table its tournament settled at the round's deadline says so (docs/tournaments.md#rounds).
    if (state.result?.settled) banner.append(h('strong', { class: 'settled', 'data-testid': 'settled-banner', text: t('tour.settled.banner') }));
    else banner.append(h('strong', { text: finalScoring ? t('turn.finalScoring') : t('end.title') }));
    banner.append(h('button', { type: 'button', class: 'btn small', 'data-testid': 'show-end', onclick: onShowEnd, text: t('end.show') }));
  } else if (state.phase === 'lobby') {
    banner.append(h('span', { text: t('lobby.title') }));
  }
}

export function renderActionBar({ state, store, draft, tiles, spots = [], queued = false }) {
  const bar = $('action-bar');
  const mine = isMyTurn(store);
  // The bar stays while the game runs, so the board does not jump at every turn.
  bar.hidden = state.phase !== 'playing' || !state.turn;
  if (bar.hidden) return;
  bar.classList.toggle('idle', !mine);
  bar.dataset.mine = mine ? '1' : '0';
  bar.dataset.pending = draft?.pending ? '1' : '0';
  const label = $('current-tile-label');
  const tileDef = tiles[state.turn.tile];
  $('current-tile-btn').disabled = !mine || !!draft?.pending;
  if (!mine) {
    label.textContent = t('action.beingPlaced');
    // During a stage of the turn (expansions/registry.js: turnStage) nobody holds a tile: the one whose placement it finishes.
    const placed = !tileDef && turnStage(state) ? (state.events ?? []).findLast((e) => e.type === 'placed' && e.seat === state.turn.seat) : null;
    const shown = tileDef ?? tiles[placed?.tile];
    $('current-tile').innerHTML = shown ? tileMarkup(shown, placed?.rotation ?? 0) : '';
    $('current-tile').dataset.tile = state.turn.tile ?? placed?.tile ?? '';
    const stage = turnStage(state); // a stage of the turn: the stepping seat's words
    if (stage?.seat === store.seat && store.seat !== null) $('action-hint').textContent = t(stage.hintKey ?? stage.mineKey, stage.params);
    else if (stage) $('action-hint').replaceChildren(...withName(stage.otherKey, playerBySeat(state, stage.seat), stage.params));
    else $('action-hint').replaceChildren(...withName('action.othersTurn', playerBySeat(state, state.turn.seat)));
    return;
  }
  label.textContent = t('action.currentTile');
  const entry = entryOf(draft);
  $('current-tile').innerHTML = tileDef ? tileMarkup(tileDef, entry?.rotation ?? 0) : '';
  $('current-tile').dataset.tile = state.turn.tile;
  const idle = !draft || draft.pending;
  $('btn-rotate').disabled = !canRotate(draft);
  $('btn-no-meeple').disabled = idle || !draft.meeple;
  $('btn-cancel').disabled = idle;
  $('btn-confirm').disabled = idle;
  const hint = $('action-hint');
  bar.dataset.queued = queued ? '1' : '0';
  if (queued) hint.textContent = t('offline.queued');
  else if (!draft) hint.textContent = isExtra(state) ? `${t('extra.mine')}. ${t('action.pickCell')}` : t('action.pickCell');
  else if (draft.meeple) {
    // The choice in words with what it is worth (spots.js), else the figure and the
    // feature's name, or the take-back (turn/choice-hint.js).
    const spot = spots.find((s) => spotChoice(s.port, s.figure) === draft.meeple);
    const name = spot ? [spot.name, spot.points].filter(Boolean).join(' · ') : choiceHint(tileDef, entry, draft.meeple) ?? '';
    hint.textContent = name.charAt(0).toUpperCase() + name.slice(1);
  } else {
    // Why this placement offers no figure, when an expansion says (expansions/registry.js: figureNote).
    const note = ask('figureNote', entry, tileDef);
    if (note) hint.textContent = t(note);
    else if ((playerBySeat(state, store.seat)?.meeples ?? 0) === 0 && !entryChoices(entry, state.turn).length) hint.textContent = t('action.noMeeplesLeft');
    else hint.textContent = t('action.noMeepleChosen');
  }
}

/** The page title: "your turn" while it is, blinking while the tab is in the background. */
export class TitleCue {
  constructor() {
    this.timer = null;
  }

  update(mine) {
    const base = t('app.title');
    const blinking = mine && document.hidden;
    // Unchanged: nothing to do (each new title is a message to the browser's own process).
    const key = `${blinking}:${mine}:${base}`;
    if (key === this.key) return;
    this.key = key;
    clearInterval(this.timer);
    if (blinking) {
      let on = true;
      document.title = t('turn.titleCue');
      this.timer = setInterval(() => {
        on = !on;
        document.title = on ? t('turn.titleCue') : base;
      }, 1200);
    } else {
      document.title = mine ? t('turn.titleCue') : base;
    }
  }
}

/** The connection indicator in the top bar, with its retry countdown. */
export class ConnIndicator {
  constructor() {
    this.timer = null;
  }

  show(status) {
    const box = $('conn');
    $('view-room').dataset.conn = status.state;
    box.hidden = false;
    box.dataset.state = status.state;
    box.dataset.retryMs = status.state === 'waiting' ? String(Math.max(0, status.retryAt - Date.now())) : '';
    const text = $('conn-text');
    clearInterval(this.timer);
    $('conn-retry').hidden = status.state !== 'waiting' && status.reason !== 'replaced';
    $('conn-retry').textContent = status.reason === 'replaced' ? t('conn.takeBack') : t('conn.retry');
    if (status.state === 'open') text.textContent = t('conn.open');
    else if (status.state === 'connecting') text.textContent = t('conn.connecting');
    else if (status.state === 'waiting') {
      const tick = () => {
        text.textContent = t('conn.waiting', { s: Math.max(0, Math.ceil((status.retryAt - Date.now()) / 1000)) });
      };
      tick();
      this.timer = setInterval(tick, 500);
    } else text.textContent = status.reason === 'replaced' ? t('conn.replaced') : t('conn.closed');
  }
}
