// Turn clocks and presence, as pure functions of the state and of "now" (docs/protocol.md:
// turn.deadline and server_time are milliseconds since the epoch on the server's clock).

/** How far the server's clock is ahead of ours (ms), from a welcome or state message. */
export function clockOffset(serverTime, localNow) {
  return Number.isFinite(serverTime) ? serverTime - localNow : 0;
}

/** Milliseconds left on the current turn's clock, or null when the turn has none. */
export function remainingMs(state, offset, localNow) {
  const deadline = state?.phase === 'playing' ? state.turn?.deadline : null;
  if (!Number.isFinite(deadline)) return null;
  return Math.max(0, deadline - (localNow + offset));
}

/** "0:42", "12:05", "1:02:03" (rounded up, so 0:00 only once the time is out). */
export function formatClock(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * A turn-based game's time bank in days and hours ("2 d 23 h", "3 d"), under a day in
 * hours and minutes: [string key, params] for i18n's t. The same words everywhere: the
 * players' panels, the lobby's choices, "your games".
 */
export function bankParts(ms) {
  const m = Math.max(0, Math.floor(ms / 60000));
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  if (d > 0) return h ? ['tb.days', { n: d, h }] : ['tb.daysOnly', { n: d }];
  if (h > 0) return m % 60 ? ['tb.hours', { h, m: m % 60 }] : ['tb.hoursOnly', { h }];
  return ['tb.minutes', { m }];
}

/** The warning for the player whose turn it is: true once, when the clock passes `at` ms. */
export function crossed(prevMs, ms, at = 10000) {
  return prevMs !== null && ms !== null && prevMs > at && ms <= at;
}

/**
 * Remembers since when each seat has been disconnected, as seen by this page: the next
 * map {seat: since ms}. A seat already away when the page first saw it has since = null
 * (unknown), so the page says "away" without a duration.
 */
export function trackAway(prev, state, now, firstSight = false) {
  const next = {};
  for (const p of state?.players ?? []) {
    if (p.connected !== false || p.bot) continue; // a computer seat is never "away"
    if (prev && Object.hasOwn(prev, p.seat)) next[p.seat] = prev[p.seat];
    else next[p.seat] = firstSight ? null : now;
  }
  return next;
}

/** How long a seat has been gone: {unit: 's'|'min'|'h', n}, or null (unknown, or just now). */
export function awayFor(since, now) {
  if (!Number.isFinite(since)) return null;
  const s = Math.max(0, Math.floor((now - since) / 1000));
  if (s < 5) return null;
  if (s < 60) return { unit: 's', n: s };
  if (s < 3600) return { unit: 'min', n: Math.floor(s / 60) };
  return { unit: 'h', n: Math.floor(s / 3600) };
}

/** What a player's panel shows about them: 'bot', 'auto' (a computer plays for them), 'away', or null. */
export function presence(player) {
  if (!player) return null;
  if (player.bot) return 'bot';
  if (player.away) return 'auto';
  if (player.connected === false) return 'away';
  return null;
}

/**
 * Ticks the current turn's countdown: onTick(ms | null) about four times a second while
 * the turn has a clock, onWarn() once when the clock passes 10 s for the player whose
 * turn it is. `now` and the timer functions can be replaced (tests).
 */
export class TurnTicker {
  constructor({
    onTick, onWarn, now = () => Date.now(), every = 250,
    setInterval: si = (f, ms) => globalThis.setInterval(f, ms), clearInterval: ci = (id) => globalThis.clearInterval(id),
  } = {}) {
    // The timer functions are kept as plain arrows: window's own must not be called as methods.
    Object.assign(this, { onTick, onWarn, now, every, si, ci });
    this.offset = 0;
    this.timer = null;
    this.state = null;
    this.mine = false;
    this.key = null;
    this.last = null;
  }

  /** From a welcome or state message (server_time). */
  sync(serverTime) {
    if (Number.isFinite(serverTime)) this.offset = clockOffset(serverTime, this.now());
  }

  /** The state changed: `mine` when the page's seat has the turn. */
  update(state, mine) {
    this.state = state;
    this.mine = mine;
    const key = state?.phase === 'playing' && Number.isFinite(state.turn?.deadline) ? `${state.turn.number}:${state.turn.deadline}` : null;
    if (key !== this.key) this.last = null; // a new turn (or a new deadline): warn again
    this.key = key;
    if (key && this.timer === null) this.timer = this.si(() => this.tick(), this.every);
    if (!key && this.timer !== null) {
      this.ci(this.timer);
      this.timer = null;
    }
    this.tick();
  }

  remaining() {
    return remainingMs(this.state, this.offset, this.now());
  }

  tick() {
    const ms = this.remaining();
    if (this.mine && crossed(this.last, ms)) this.onWarn?.();
    this.last = ms;
    this.onTick?.(ms);
  }

  stop() {
    if (this.timer !== null) this.ci(this.timer);
    this.timer = null;
  }
}
