// The lobby card: the invite link, the seats (the host removes players and computer
// players, adds computer players), the clock (the host sets it, everyone sees it), the
// room's webhook (the host's, webhook.js), leaving a seat, taking one, and the host's start
// button. The decisions are lobbylife.js's.
// Names are user text: they only reach the page through textContent.

import { t, playerName } from '../i18n/i18n.js';
import { h, add, colorChip, nameSpan, bankText } from '../room/panels.js';
import { expansionsSection } from './lobby-expansions.js';
import { optionsSection } from './lobby-options.js';
import { hintsSetting } from '../turn/hint.js';
import { webhookSection, readHookDraft } from './webhook.js';
import { notifyControl } from '../platform/notify.js';
import { openSection } from './open-game.js';
import { lobbyControls, clockChoices, settingsMessage, durationParts, BOT_LEVELS, maxSeats } from './lobbylife.js';

/** "2 min", "no limit" ... */
export function durationText(seconds) {
  if (seconds === null || seconds === undefined) return t('clock.none');
  const { unit, n } = durationParts(seconds);
  return t(`clock.${unit}`, { n });
}

function awayText(seconds) {
  return seconds === null || seconds === undefined ? t('away.never') : t('away.after', { time: durationText(seconds) });
}

/** One clock setting: a select for the host, nothing for the others (they read the summary). */
function clockSelect(key, current, onSettings) {
  const id = `lobby-${key}`;
  const select = h('select', { id, 'data-testid': `clock-${key}` });
  for (const v of clockChoices(key, current)) {
    const label = key === 'turn_seconds' ? durationText(v) : awayText(v);
    select.append(h('option', { value: v === null ? '' : String(v), selected: v === (current ?? null), text: label }));
  }
  select.addEventListener('change', () => {
    const msg = settingsMessage(key, select.value === '' ? null : Number(select.value));
    if (msg) onSettings(msg);
  });
  return h('label', { class: 'clock-setting', for: id },
    h('span', { text: t(key === 'turn_seconds' ? 'lobby.turnSeconds' : 'lobby.awaySeconds') }), select);
}

/** A turn-based room's bank or increment: a select for the host, in days and hours. */
function bankSelect(key, current, onSettings) {
  const id = `lobby-${key}`;
  const select = h('select', { id, 'data-testid': `clock-${key}` });
  for (const v of clockChoices(key, current)) {
    select.append(h('option', { value: String(v), selected: v === current, text: key === 'increment_seconds' ? incrementText(v) : bankText(v * 1000) }));
  }
  select.addEventListener('change', () => {
    const msg = settingsMessage(key, Number(select.value));
    if (msg) onSettings(msg);
  });
  return h('label', { class: 'clock-setting', for: id }, h('span', { text: t(key === 'bank_seconds' ? 'tb.bank' : 'tb.increment') }), select);
}

const incrementText = (seconds) => (seconds ? `+${bankText(seconds * 1000)}` : t('tb.noIncrement'));

/** The pace (docs/turn-based.md): live, or turn-based with its bank and increment (3 days, +1 day a move by default). */
function paceSelect(settings, onSettings) {
  const select = h('select', { id: 'lobby-pace', 'data-testid': 'clock-pace' });
  for (const pace of ['live', 'turn_based']) {
    select.append(h('option', { value: pace, selected: (settings.pace ?? 'live') === pace, text: t(pace === 'live' ? 'tb.live' : 'tb.turnBased') }));
  }
  select.addEventListener('change', () => onSettings({ type: 'settings', pace: select.value }));
  return h('label', { class: 'clock-setting', for: 'lobby-pace' }, h('span', { text: t('tb.pace') }), select);
}

function seatRow(p, { mySeat, controls, onFreeSeat }) {
  const c = controls.seats.find((x) => x.seat === p.seat) ?? {};
  const free = c.kick || c.removeBot
    ? h('button', {
      type: 'button', class: 'btn small seat-remove', 'data-testid': c.removeBot ? 'remove-bot' : 'kick', 'data-seat': p.seat,
      title: c.removeBot ? t('lobby.removeBot') : t('lobby.kickTitle', { name: playerName(p) }), onclick: () => onFreeSeat(p.seat),
      text: t('lobby.kick'),
    })
    : null;
  return h('li', { class: `seat c-${p.color}${p.bot ? ' bot' : ''}`, 'data-testid': 'seat', 'data-seat': p.seat, 'data-bot': p.bot ?? '' },
    colorChip(p.color), nameSpan(p),
    p.seat === mySeat ? h('span', { class: 'badge you', text: t('you') }) : null,
    p.host ? h('span', { class: 'badge', 'data-testid': 'host-badge', text: t('host') }) : null,
    p.bot ? h('span', { class: 'badge bot', 'data-testid': 'bot-seat-badge', text: t('lobby.botBadge', { level: t(`bot.${p.bot}`).toLowerCase() }) }) : null,
    p.bot ? null : h('span', { class: `dot ${p.connected ? 'on' : 'off'}` }),
    h('span', { class: 'seat-gap' }),
    free);
}

/**
 * opts: {mySeat, inviteUrl, notice, canTakeSeat, onCopy, onShare, onStart, onLeave,
 *        onFreeSeat(seat), onAddBot(level), onSettings(msg), onTakeSeat,
 *        notify: the opt-in's status (notify.js notifyStatus), onNotify,
 *        open: whether the lobby is listed among the open games, onOpen(bool)}
 */
export function renderLobby(card, state, opts) {
  const { mySeat, inviteUrl, notice, canTakeSeat, onCopy, onStart, onShare, onLeave, onFreeSeat, onAddBot, onSettings, onTakeSeat } = opts;
  // The host's pick of a level survives the redraws.
  const level = card.querySelector('[data-testid="bot-level"]')?.value ?? 'medium';
  const clockOpen = card.dataset.clockOpen === '1';
  const hookDraft = readHookDraft(card);
  card.replaceChildren();
  const players = state.players ?? [];
  const controls = lobbyControls(state, mySeat);
  const host = players.find((p) => p.host);
  const input = h('input', { class: 'invite-input', readonly: true, value: inviteUrl, 'data-testid': 'invite-link', 'aria-label': t('lobby.invite') });
  input.addEventListener('focus', () => input.select());
  // The seats taken, then one line for the free ones (six rows of "Free seat" pushed the
  // expansions and the start out of a laptop's card).
  const seats = h('ul', { class: 'seats', 'data-testid': 'seats', 'data-max': maxSeats(state) });
  for (const p of players) seats.appendChild(seatRow(p, { mySeat, controls, onFreeSeat }));
  const free = Math.max(0, maxSeats(state) - players.length);
  if (free) seats.appendChild(h('li', { class: 'seat empty', 'data-testid': 'free-seats', 'data-n': free, text: t('lobby.freeSeats', { n: free }) }));
  add(card,
    h('h2', { text: t('lobby.title') }),
    notice ? h('p', { class: 'notice lobby-notice', 'data-testid': 'lobby-notice', text: notice }) : null,
    // A turn-based game lasts days: being told of one's turn comes first.
    notifyControl(opts.notify ?? null, opts.onNotify),
    h('label', { class: 'muted', text: t('lobby.invite') }),
    h('div', { class: 'invite-row' }, input,
      h('button', { type: 'button', class: 'btn', 'data-testid': 'copy-invite', onclick: onCopy, text: t('lobby.copy') }),
      typeof navigator !== 'undefined' && navigator.share ? h('button', { type: 'button', class: 'btn', onclick: onShare, text: t('lobby.share') }) : null),
    h('h3', { 'data-testid': 'seats-title', text: t('lobby.seats', { n: players.length, max: maxSeats(state) }) }),
    seats,
    opts.onOpen ? openSection(opts.open ?? null, { isHost: controls.isHost, onOpen: opts.onOpen }) : null);

  if (controls.isHost) {
    const select = h('select', { 'data-testid': 'bot-level', 'aria-label': t('lobby.botLevel') },
      ...BOT_LEVELS.map((l) => h('option', { value: l, selected: l === level, text: t(`bot.${l}`) })));
    add(card, h('div', { class: 'bot-row' },
      select,
      h('button', {
        type: 'button', class: 'btn', 'data-testid': 'add-bot', disabled: !controls.canAddBot,
        onclick: () => onAddBot(select.value), text: t('lobby.addBot'),
      })),
    controls.full ? h('p', { class: 'muted', text: t('lobby.full', { n: maxSeats(state) }) }) : null);
  }

  card.append(expansionsSection(state, { canSet: controls.canSetClock, onSettings, bagSize: opts.bagSize ?? null }));
  card.append(optionsSection(state, { canSet: controls.canSetClock, onSettings }));
  card.append(hintsSetting(state, { canSet: controls.canSetClock, onSettings }));

  // The clock: everyone reads it in one line; the host opens it to change it.
  const settings = state.settings ?? { turn_seconds: null, away_seconds: 60 };
  const away = settings.away_seconds === null ? t('away.summaryNever') : t('away.summary', { time: durationText(settings.away_seconds) });
  const turnBased = settings.pace === 'turn_based';
  const summary = turnBased
    ? h('span', { 'data-testid': 'clock-summary', text: t('tb.summary', { bank: bankText((settings.bank_seconds ?? 259200) * 1000), inc: incrementText(settings.increment_seconds ?? 86400) }) })
    : h('span', { 'data-testid': 'clock-summary', text: t('lobby.clockSummary', { turn: durationText(settings.turn_seconds), away }) });
  if (controls.canSetClock) {
    const clock = h('details', { class: 'lobby-clock', 'data-testid': 'clock', open: clockOpen },
      h('summary', {}, h('strong', { text: t('lobby.clock') }), ' ', summary),
      paceSelect(settings, onSettings),
      turnBased ? bankSelect('bank_seconds', settings.bank_seconds ?? 259200, onSettings) : clockSelect('turn_seconds', settings.turn_seconds, onSettings),
      turnBased ? bankSelect('increment_seconds', settings.increment_seconds ?? 86400, onSettings) : clockSelect('away_seconds', settings.away_seconds, onSettings));
    clock.addEventListener('toggle', () => { card.dataset.clockOpen = clock.open ? '1' : ''; });
    card.append(clock);
  } else {
    card.append(h('p', { class: 'lobby-clock muted', 'data-testid': 'clock' }, h('strong', { text: t('lobby.clock') }), ' ', summary));
  }
  // The start comes after the game's settings: the host goes down the card once.
  // It stays at the bottom of the card (or of a phone's screen) while the rest scrolls.
  if (controls.isHost) {
    card.append(h('div', { class: 'lobby-start' },
      h('button', { type: 'button', class: 'btn primary large', 'data-testid': 'start', disabled: !controls.canStart, onclick: onStart, text: t('lobby.start') }),
      players.length < 2 ? h('p', { class: 'muted need-players', text: t('lobby.needPlayers') }) : null));
  } else if (host) {
    const p = h('p', { class: 'muted wait-host' });
    const text = t('lobby.waitHost', { name: '\u0000' }).split('\u0000');
    p.append(text[0], nameSpan(host), text[1] ?? '');
    card.append(p);
  }
  if (controls.isHost) card.append(webhookSection(settings, { onSettings, draft: hookDraft }));
  card.append(h('p', { class: 'muted', text: t('spectators', { n: state.spectators ?? 0 }) }));

  if (controls.canLeave) {
    card.append(h('button', { type: 'button', class: 'link-btn leave', 'data-testid': 'leave', onclick: onLeave, text: t('lobby.leave') }));
  } else if (!controls.seated && canTakeSeat && !controls.full) {
    card.append(h('button', { type: 'button', class: 'btn large', 'data-testid': 'take-seat', onclick: onTakeSeat, text: t('join.join') }));
  }
}

/** Copies the invite link (clipboard API, else the selected input); the button says so. */
export async function copyInvite(btn, url) {
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
