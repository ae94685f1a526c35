// Creating a tournament from the page, /t/new (docs/tournaments.md#creating-one): the name,
// format, Swiss rounds, seats, pace with its clock (a live turn's seconds, or a turn-based
// bank, increment and round length), rated, and computer entrants, sent with the browser's
// player key, which makes its player the organiser; the server checks them and names what it
// refuses. The other settings keep their defaults.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { ensureKey } from '../platform/playerkey.js';
import { local } from '../platform/storage.js';
import { tournamentPath } from '../pages/routes.js';

const FORMATS = ['swiss', 'round_robin', 'single_elimination', 'double_elimination'];

const given = (v) => v !== undefined && v !== null && String(v).trim() !== '';

/** The body POST /api/tournaments takes, from the form's values (a clock field left empty keeps its default). */
export function createBody({ name, format, rounds, seats, pace, rated, turnSeconds, bankDays, incrementHours, roundHours }) {
  const body = { name: String(name ?? '').trim(), format, seats: Number(seats), pace, rated: !!rated };
  if (format === 'swiss') body.rounds = Number(rounds);
  if (pace === 'live' && given(turnSeconds)) body.turn_seconds = Number(turnSeconds);
  if (pace === 'turn_based') {
    if (given(bankDays)) body.bank_seconds = Math.round(Number(bankDays) * 86400);
    if (given(incrementHours)) body.increment_seconds = Math.round(Number(incrementHours) * 3600);
    if (given(roundHours)) body.round_hours = Number(roundHours);
  }
  return body;
}

/** The computer entrants POST /api/tournaments/<id>/bots takes, one request each: [{level}]. */
export function botRequests(count, level) {
  const n = Math.max(0, Math.min(255, Math.floor(Number(count) || 0)));
  return Array.from({ length: n }, () => ({ level }));
}

/** A labelled control of the form. */
function field(label, control) {
  return h('label', { class: 'form-row' }, h('span', { text: label }), control);
}

/** The form, in `root`; `go(path)` opens the new tournament's page. */
export function renderCreate(root, go = (path) => window.location.assign(path)) {
  const name = h('input', { maxlength: 64, required: true, 'data-testid': 'tour-new-name' });
  const format = h('select', { 'data-testid': 'tour-new-format' },
    ...FORMATS.map((f) => h('option', { value: f, text: t(`tour.format.${f}`) })));
  const rounds = h('input', { type: 'number', min: 1, max: 20, value: 3, 'data-testid': 'tour-new-rounds' });
  const roundsRow = field(t('tour.new.rounds'), rounds);
  const seats = h('input', { type: 'number', min: 2, max: 256, value: 8, required: true, 'data-testid': 'tour-new-seats' });
  const pace = h('select', { 'data-testid': 'tour-new-pace' },
    h('option', { value: 'live', text: t('tour.live') }), h('option', { value: 'turn_based', text: t('tour.turnBased') }));
  const rated = h('input', { type: 'checkbox', 'data-testid': 'tour-new-rated' });
  const turnSeconds = h('input', { type: 'number', min: 10, max: 3600, value: 120, 'data-testid': 'tour-new-turn' });
  const bankDays = h('input', { type: 'number', min: 1, max: 30, step: 'any', value: 3, 'data-testid': 'tour-new-bank' });
  const incrementHours = h('input', { type: 'number', min: 0, max: 168, step: 'any', value: 24, 'data-testid': 'tour-new-increment' });
  const roundHours = h('input', { type: 'number', min: 1, max: 1440, value: 72, 'data-testid': 'tour-new-round-hours' });
  const liveRows = [field(t('tour.new.turnSeconds'), turnSeconds)];
  const turnRows = [field(t('tour.new.bankDays'), bankDays), field(t('tour.new.incrementHours'), incrementHours),
    field(t('tour.new.roundHours'), roundHours)];
  const bots = h('input', { type: 'number', min: 0, max: 255, value: 0, 'data-testid': 'tour-new-bots' });
  const botLevel = h('select', { 'data-testid': 'tour-new-bot-level' },
    ...['easy', 'medium', 'hard'].map((l) => h('option', { value: l, text: t(`tour.bot.${l}`) })));
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true, 'data-testid': 'tour-new-error' });
  const button = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'tour-new-create', text: t('tour.new.submit') });
  format.onchange = () => { roundsRow.hidden = format.value !== 'swiss'; };
  const showClock = () => {
    for (const r of liveRows) r.hidden = pace.value !== 'live';
    for (const r of turnRows) r.hidden = pace.value === 'live';
  };
  pace.onchange = showClock;
  showClock();
  const submit = async (e) => {
    e.preventDefault();
    button.disabled = true;
    error.hidden = true;
    try {
      const key = await ensureKey(local);
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const res = await fetch('/api/tournaments', {
        method: 'POST', headers,
        body: JSON.stringify(createBody({ name: name.value, format: format.value, rounds: rounds.value, seats: seats.value, pace: pace.value,
          rated: rated.checked, turnSeconds: turnSeconds.value, bankDays: bankDays.value, incrementHours: incrementHours.value, roundHours: roundHours.value })),
      });
      const body = await res.json().catch(() => ({}));
      if (res.status === 201 && body.id) {
        // The computer entrants, once it exists; one refused (full) still opens its page.
        for (const b of botRequests(bots.value, botLevel.value)) {
          const added = await fetch(`/api/tournaments/${encodeURIComponent(body.id)}/bots`, { method: 'POST', headers, body: JSON.stringify(b) });
          if (!added.ok) break;
        }
        return go(tournamentPath(body.id));
      }
      error.textContent = t('tour.new.failed', { why: body.message ?? res.status });
    } catch {
      error.textContent = t('tour.failed');
    }
    error.hidden = false;
    button.disabled = false;
  };
  root.replaceChildren(h('section', { class: 'home-card' },
    h('h1', { text: t('tour.new.title') }),
    h('form', { class: 'tour-create', 'data-testid': 'tour-new', onsubmit: submit },
      field(t('tour.new.name'), name), field(t('tour.new.format'), format), roundsRow,
      field(t('tour.new.seats'), seats), field(t('tour.new.pace'), pace), ...liveRows, ...turnRows,
      h('label', { class: 'check-row' }, rated, h('span', { text: t('tour.new.rated') })),
      field(t('tour.new.bots'), bots), field(t('tour.new.botLevel'), botLevel),
      error, button)));
}
