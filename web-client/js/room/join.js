// How a room page joins: with the seat token this browser keeps, with the name given on
// the start page, or by asking (the join dialog).

import { t, joinNames } from '../i18n/i18n.js';
import { h } from './panels.js';
import { $ } from '../pages/page.js';
import { KEYS, local, session } from '../platform/storage.js';
import { profileName } from '../platform/playerkey.js';

/** The first message to send once connected, for an intent. */
export function joinMessage(intent) {
  if (!intent) return null;
  if (intent.type === 'token') return { type: 'join', token: intent.token };
  if (intent.type === 'name') return { type: 'join', name: intent.name };
  if (intent.type === 'watch') return { type: 'watch' };
  return null;
}

/**
 * The intent a room page starts with: the kept token, else the name handed over by the
 * start page (used once), else null (ask).
 */
export function storedIntent(room) {
  const token = local.get(KEYS.token(room));
  if (token) return { type: 'token', token };
  const pending = session.get(KEYS.pendingName(room));
  if (pending) {
    session.del(KEYS.pendingName(room));
    return { type: 'name', name: pending };
  }
  return null;
}

/** What GET /api/rooms/<id> says about joining, as one line of the dialog. */
function describeRoom(info, r) {
  const n = r.players?.length ?? 0;
  const max = Number.isInteger(r.seats) && r.seats > 0 ? r.seats : 5; // more when an expansion brings more
  if (r.phase === 'lobby' && n < max) {
    info.textContent = t('join.lobby', { n, max });
    const names = (r.players ?? []).map((p) => String(p.name ?? '')).filter(Boolean);
    if (names.length) info.append(h('br'), h('span', { class: 'join-names', text: joinNames(names) }));
  } else if (r.phase === 'lobby') info.textContent = t('join.full');
  else if (r.phase === 'playing') info.textContent = t('join.started');
  else info.textContent = t('join.finished');
}

/** Shows the "unknown room" dialog. */
export function showMissing() {
  $('missing-modal').hidden = false;
}

/** Asks for a name (or "just watch"); `notice` explains why it asks again. */
export async function askName(room, notice) {
  const info = $('join-info');
  const noticeEl = $('join-notice');
  info.textContent = '';
  noticeEl.hidden = !notice;
  noticeEl.textContent = notice ?? '';
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(room)}`);
    if (res.status === 404) {
      showMissing();
      return;
    }
    if (res.ok) describeRoom(info, await res.json());
  } catch { /* offline: the form still works once the server is back */ }
  $('join-modal').hidden = false;
  const input = $('join-name');
  input.value = local.get(KEYS.name) ?? '';
  input.focus();
  // The player's public name, when this browser's key has one, unless they typed already.
  const typed = input.value;
  const profile = await profileName(local);
  if (profile && input.value === typed) input.value = profile;
}

/** onIntent({type:'name', name} | {type:'watch'}) once the dialog is answered. */
export function bindJoinForm(onIntent) {
  $('join-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = $('join-name').value.trim();
    if (!name) return;
    local.set(KEYS.name, name);
    $('join-modal').hidden = true;
    onIntent({ type: 'name', name });
  });
  $('join-watch').addEventListener('click', () => {
    $('join-modal').hidden = true;
    onIntent({ type: 'watch' });
  });
}
