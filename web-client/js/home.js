// The start page: a small scene of tiles and the "create a game" form.

import { t } from './i18n.js';
import { tileMarkup, meepleMarkup } from './tileart.js';
import { $ } from './page.js';
import { KEYS, local, session } from './storage.js';
import { roomPath } from './routes.js';

const SCENE = [
  [-1, -1, 'B', 0], [0, -1, 'E', 180], [1, -1, 'V', 180],
  [-1, 0, 'U', 0], [0, 0, 'D', 0], [1, 0, 'U', 0],
];

function drawArt(tiles) {
  let m = '';
  for (const [x, y, l, r] of SCENE) {
    const def = tiles[l];
    if (def) m += `<g transform="translate(${(x + 1) * 100} ${(y + 1) * 100})">${tileMarkup(def, r)}</g>`;
  }
  m += meepleMarkup(50, 152, 'blue', {}) + meepleMarkup(150, 40, 'red', {}) + meepleMarkup(270, 150, 'green', {})
    + meepleMarkup(250, 178, 'yellow', { farmer: true });
  $('home-art').innerHTML = `<svg viewBox="-4 -4 308 208">${m}</svg>`;
}

/** POST /api/rooms: the new room's id. */
export async function createRoom() {
  const res = await fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = await res.json();
  if (typeof body?.room !== 'string') throw new Error('no room in the answer');
  return body.room;
}

function bindCreateForm() {
  const name = $('create-name');
  name.value = local.get(KEYS.name) ?? '';
  $('create-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const n = name.value.trim();
    if (!n) return;
    const btn = $('create-btn');
    btn.disabled = true;
    btn.textContent = t('home.creating');
    $('create-error').textContent = '';
    try {
      const room = await createRoom();
      local.set(KEYS.name, n);
      // The room page joins under this name without asking again.
      session.set(KEYS.pendingName(room), n);
      location.assign(roomPath(room));
    } catch {
      $('create-error').textContent = t('home.createFailed');
      btn.disabled = false;
      btn.textContent = t('home.create');
    }
  });
  name.focus();
}

export function showHome({ tiles }) {
  $('view-home').hidden = false;
  drawArt(tiles);
  bindCreateForm();
}
