// Creating a tournament from the page, /t/new (docs/tournaments.md#creating-one): the
// commonest settings (name, format, rounds for a Swiss, seats, pace, rated) sent with the
// browser's player key, which makes its player the organiser; the server checks them and
// names what it refuses. The other settings keep their defaults.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { ensureKey } from '../platform/playerkey.js';
import { local } from '../platform/storage.js';
import { tournamentPath } from '../pages/routes.js';

const FORMATS = ['swiss', 'round_robin', 'single_elimination', 'double_elimination'];

/** The body POST /api/tournaments takes, from the form's values. */
export function createBody({ name, format, rounds, seats, pace, rated }) {
  const body = { name: String(name ?? '').trim(), format, seats: Number(seats), pace, rated: !!rated };
  if (format === 'swiss') body.rounds = Number(rounds);
  return body;
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
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true, 'data-testid': 'tour-new-error' });
  const button = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'tour-new-create', text: t('tour.new.submit') });
  format.onchange = () => { roundsRow.hidden = format.value !== 'swiss'; };
  const submit = async (e) => {
    e.preventDefault();
    button.disabled = true;
    error.hidden = true;
    try {
      const key = await ensureKey(local);
      const res = await fetch('/api/tournaments', {
        method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(createBody({ name: name.value, format: format.value, rounds: rounds.value, seats: seats.value, pace: pace.value, rated: rated.checked })),
      });
      const body = await res.json().catch(() => ({}));
      if (res.status === 201 && body.id) return go(tournamentPath(body.id));
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
      field(t('tour.new.seats'), seats), field(t('tour.new.pace'), pace),
      h('label', { class: 'check-row' }, rated, h('span', { text: t('tour.new.rated') })),
      error, button)));
}
