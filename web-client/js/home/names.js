// The start page's public name (docs/community.md, "Names"): the name this browser's player
// key is known by, chosen once and changed at most once a day (the server keeps the old
// ones in the player's history). The forms that ask for a name (the start page's, the join
// dialog's) start from it.

import { t } from '../i18n/i18n.js';
import { $ } from '../pages/page.js';
import { KEYS } from '../platform/storage.js';
import { currentKey, ensureKey } from '../platform/playerkey.js';

const auth = (key) => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' });

/** What a PUT /api/me/name answer means for the page: the status line's key. */
export function nameOutcome(status, body) {
  if (status === 200) return 'name.saved';
  if (status === 429 && body?.error === 'too_soon') return 'name.tooSoon';
  if (status === 400 && body?.error === 'bad_name') return 'name.bad';
  return 'name.failed';
}

export class PublicName {
  constructor(store, fetchFn = (...a) => globalThis.fetch(...a)) {
    this.store = store;
    this.fetch = fetchFn;
    this.profile = null; // GET /api/me/name's answer
  }

  async show() {
    $('profile-card').hidden = false;
    $('profile-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.save();
    });
    const key = currentKey(this.store);
    if (!key) return;
    try {
      const res = await this.fetch('/api/me/name', { headers: auth(key) });
      if (res.ok) this.adopt(await res.json());
    } catch { /* no name shown: the form still works */ }
  }

  /** The profile's name goes into the form and becomes the name the other forms start from. */
  adopt(profile) {
    this.profile = profile;
    // The player's own page (docs/community.md, "The pages"), once its public id is known.
    if (typeof profile?.player === 'string' && /^[A-Za-z0-9_-]{16}$/.test(profile.player)) {
      $('my-page').href = `/p/${profile.player}`;
      $('my-page').hidden = false;
    }
    const name = typeof profile?.name === 'string' ? profile.name : '';
    if (!name) return;
    $('profile-name').value = name;
    this.store.set(KEYS.name, name);
    const create = $('create-name');
    if (!create.value.trim() || create.value === this.previous) create.value = name;
    this.previous = name;
  }

  async save() {
    const name = $('profile-name').value.trim();
    const status = $('profile-status');
    if (!name) return;
    $('profile-save').disabled = true;
    try {
      const key = await ensureKey(this.store, this.fetch);
      const res = await this.fetch('/api/me/name', { method: 'PUT', headers: auth(key), body: JSON.stringify({ name }) });
      const body = await res.json().catch(() => null);
      status.textContent = t(nameOutcome(res.status, body));
      if (res.status === 200) this.adopt(body);
    } catch {
      status.textContent = t('name.failed');
    }
    $('profile-save').disabled = false;
  }
}
