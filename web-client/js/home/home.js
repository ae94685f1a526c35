// The start page: a small scene of tiles, the "create a game" form with the game's
// expansions and pace (or a game against the computer: how many computer players and their
// level), "your games", and opening a record file for the replay viewer.

import { t } from '../i18n/i18n.js';
import { tileMarkup, meepleMarkup } from '../tiles/tileart.js';
import { $ } from '../pages/page.js';
import { KEYS, local, session } from '../platform/storage.js';
import { roomPath } from '../pages/routes.js';
import { YourGames } from './yourgames.js';
import { SignIn } from './signin.js';
import { acceptDrops } from '../replay/recordfile.js';
import { soloText, setupText, maxSeats } from '../lobby/lobbylife.js';
import { offeredIds } from '../expansions/registry.js';
import { adoptKeyFromHash } from '../platform/playerkey.js';

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

/** The expansions to tick (each one's name, what it adds as its title). */
function drawOptions() {
  const box = $('home-expansions');
  const on = new Set([...box.querySelectorAll('input:checked')].map((i) => i.value));
  box.replaceChildren(...offeredIds().map((id) => { // those the server plays (expansions/registry.js)
    const label = document.createElement('label');
    label.className = 'home-exp';
    label.title = t(`exp.${id}.what`);
    const input = document.createElement('input');
    Object.assign(input, { type: 'checkbox', value: id, checked: on.has(id) });
    input.dataset.testid = `home-expansion-${id}`;
    input.addEventListener('change', () => {
      soloCounts();
      describeChosen();
    });
    label.append(input, ' ', t(`exp.${id}`));
    return label;
  }));
  soloCounts();
  describeChosen();
}

/** What the ticked expansions add, in words (a phone has no titles to point at). */
function describeChosen() {
  const chosen = chosenExpansions();
  const hint = document.querySelector('.home-opts-hint');
  hint.textContent = chosen.length ? chosen.map((id) => `${t(`exp.${id}`)}: ${t(`exp.${id}.what`)}`).join(' ') : t('home.expansionsHint');
}

const chosenExpansions = () => [...$('home-expansions').querySelectorAll('input:checked')].map((i) => i.value);

/** How many computer players the seats allow: one fewer than the seats (lobby/lobbylife.js: maxSeats). */
function soloCounts() {
  const select = $('solo-count');
  const most = maxSeats({ settings: { expansions: chosenExpansions() } }) - 1;
  const was = Math.min(Number(select.value) || 1, most);
  select.replaceChildren(...Array.from({ length: most }, (_, i) => {
    const o = document.createElement('option');
    o.textContent = String(i + 1);
    o.selected = i + 1 === was;
    return o;
  }));
}

function bindCreateForm() {
  const name = $('create-name');
  name.value = local.get(KEYS.name) ?? '';
  $('create-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const n = name.value.trim();
    if (!n) return;
    const solo = ev.submitter?.id === 'solo-btn';
    const btn = solo ? $('solo-btn') : $('create-btn');
    for (const b of [$('create-btn'), $('solo-btn')]) b.disabled = true;
    btn.textContent = t(solo ? 'home.soloStarting' : 'home.creating');
    $('create-error').textContent = '';
    try {
      const room = await createRoom();
      local.set(KEYS.name, n);
      // The room page joins under this name without asking again, and for a solo game
      // adds a medium computer player and starts.
      session.set(KEYS.pendingName(room), n);
      const setup = setupText({ expansions: chosenExpansions(), pace: $('home-pace').value });
      if (setup) session.set(KEYS.setup(room), setup);
      if (solo) session.set(KEYS.solo(room), soloText({ level: $('solo-level').value, count: Number($('solo-count').value) }));
      location.assign(roomPath(room));
    } catch {
      $('create-error').textContent = t('home.createFailed');
      for (const b of [$('create-btn'), $('solo-btn')]) b.disabled = false;
      btn.textContent = t(solo ? 'home.solo' : 'home.create');
    }
  });
  name.focus();
}

// A record file, chosen or dropped anywhere on the page: openFile(file, errorEl) shows the
// replay, or writes why not into errorEl and changes nothing else.
function bindRecordOpener(openFile) {
  const input = $('record-file');
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = ''; // the same file can be chosen again
    if (file) openFile(file, $('record-error'));
  });
  acceptDrops($('view-home'), (file) => openFile(file, $('record-error')));
}

/** The start page; returns what to tell when the language changes. */
export function showHome({ tiles, openFile }) {
  $('view-home').hidden = false;
  drawArt(tiles);
  drawOptions();
  bindCreateForm();
  bindRecordOpener(openFile);
  adoptKeyFromHash(local); // a transfer link from another device: its games join the list
  const games = new YourGames();
  games.show();
  const signin = new SignIn();
  signin.show();
  return {
    relabel: () => {
      games.relabel();
      signin.relabel();
      drawOptions();
    },
  };
}

/** Back to the start page from a record's replay. */
export function returnHome() {
  $('view-home').hidden = false;
}
