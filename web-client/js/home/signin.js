// Sign-in on the start page (docs/community.md, "Sign-in"): shown only when the server has
// an OpenID Connect provider (GET /api/me says so). "Sign in" makes this browser's player
// key if it has none, asks the server for the provider's page and goes there; the provider
// sends the browser back to the start page, which then says "signed in as ...". A refused
// sign-in comes back with its code (?signin=error&signin_error=...), said in words here.
// Names are user text: textContent only.

import { t } from '../i18n/i18n.js';
import { $ } from '../pages/page.js';
import { local } from '../platform/storage.js';
import { currentKey, ensureKey } from '../platform/playerkey.js';

const auth = (key) => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' });

/** GET /api/me with this browser's key (if any): null when the server does not answer. */
export async function fetchMe(store = local, fetchFn = globalThis.fetch) {
  const key = currentKey(store);
  try {
    const res = await fetchFn('/api/me', key ? { headers: auth(key) } : {});
    if (res.status === 401 && key) return fetchMe({ get: () => null }, fetchFn); // a revoked key: as a newcomer
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

/** The refusal the provider's round trip came back with, and the address bar without it. */
export function takeSigninResult(loc = globalThis.location, hist = globalThis.history) {
  const q = new URLSearchParams(loc?.search ?? '');
  if (!q.has('signin')) return null;
  const result = { ok: q.get('signin') === 'ok', code: q.get('signin_error') ?? '' };
  hist?.replaceState(null, '', loc.pathname + loc.hash);
  return result;
}

export class SignIn {
  constructor() {
    this.me = null;
    this.result = takeSigninResult();
  }

  async show() {
    this.me = await fetchMe();
    this.draw();
  }

  relabel() { this.draw(); }

  draw() {
    const card = $('signin-card');
    const me = this.me;
    card.hidden = !me?.signin;
    if (card.hidden) return;
    const state = $('signin-state');
    const button = $('signin-btn');
    if (me.signed_in) {
      state.textContent = t('signin.as', { name: me.name || me.player_id });
      button.hidden = true;
    } else {
      state.textContent = t('signin.why');
      button.hidden = false;
      button.textContent = t('signin.button');
    }
    $('signin-id').textContent = me.player_id ? t('signin.playerId', { id: me.player_id }) : '';
    const error = $('signin-error');
    error.textContent = this.result && !this.result.ok ? t('signin.failed', { code: this.result.code || '?' }) : '';
    button.onclick = () => this.start();
  }

  async start() {
    const button = $('signin-btn');
    button.disabled = true;
    $('signin-error').textContent = '';
    try {
      const key = await ensureKey(local, globalThis.fetch);
      const res = await fetch('/api/signin/start', { method: 'POST', headers: auth(key), body: '{}' });
      const body = await res.json().catch(() => null);
      if (!res.ok || typeof body?.url !== 'string') throw new Error(body?.error ?? `HTTP ${res.status}`);
      location.assign(body.url);
    } catch (e) {
      $('signin-error').textContent = t('signin.failed', { code: e.message });
      button.disabled = false;
    }
  }
}
