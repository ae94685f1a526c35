// The room's webhook in the lobby (docs/turn-based.md): the host sets or removes it; the URL is a
// secret of the room, so the page never shows it back (the state only says whether one is
// set). Checks here spare a round trip; the server decides (private addresses, plain http).

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';

export const HOOK_FORMATS = ['json', 'discord', 'ntfy'];
const FORMAT_NAMES = { json: 'JSON', discord: 'Discord', ntfy: 'ntfy' };  // names, not words to translate
export const MAX_HOOK_URL_BYTES = 512;

/** The settings message that sets the webhook, or {error: <string key>} and nothing to send. */
export function webhookMessage(url, format) {
  const u = String(url ?? '').trim();
  if (!u) return { error: 'hook.empty' };
  if (new TextEncoder().encode(u).length > MAX_HOOK_URL_BYTES) return { error: 'hook.tooLong' };
  let parsed = null;
  try { parsed = new URL(u); } catch { return { error: 'hook.badUrl' }; }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { error: 'hook.badUrl' };
  if (!HOOK_FORMATS.includes(format)) return { error: 'hook.badFormat' };
  return { msg: { type: 'settings', webhook: { url: u, format } } };
}

/** What the host had typed, kept across the lobby's redraws. */
export function readHookDraft(card) {
  const box = card.querySelector('[data-testid="webhook"]');
  if (!box) return {};
  return {
    open: box.open,
    url: box.querySelector('[data-testid="hook-url"]')?.value ?? '',
    format: box.querySelector('[data-testid="hook-format"]')?.value ?? 'json',
  };
}

/**
 * The host's control: closed by default, one line saying whether a webhook is set. A
 * tournament's page uses it too, with its own title and hint (string keys).
 */
export function webhookSection(settings, { onSettings, draft = {}, title = 'hook.title', hint = 'hook.hint' }) {
  const set = settings?.webhook === true;
  const url = h('input', {
    type: 'url', id: 'lobby-hook-url', 'data-testid': 'hook-url', maxlength: MAX_HOOK_URL_BYTES, autocomplete: 'off',
    spellcheck: 'false', placeholder: 'https://', value: draft.url || null,
  });
  const format = h('select', { id: 'lobby-hook-format', 'data-testid': 'hook-format' },
    ...HOOK_FORMATS.map((f) => h('option', { value: f, selected: f === (draft.format || 'json'), text: FORMAT_NAMES[f] })));
  const problem = h('p', { class: 'muted hook-problem', 'data-testid': 'hook-problem', role: 'status' });
  const form = h('form', { class: 'hook-form' },
    h('label', { class: 'clock-setting', for: 'lobby-hook-url' }, h('span', { text: t('hook.url') }), url),
    h('label', { class: 'clock-setting', for: 'lobby-hook-format' }, h('span', { text: t('hook.format') }), format),
    h('div', { class: 'hook-buttons' },
      h('button', { type: 'submit', class: 'btn', 'data-testid': 'hook-save', text: t(set ? 'hook.replace' : 'hook.save') }),
      set ? h('button', {
        type: 'button', class: 'btn', 'data-testid': 'hook-remove', text: t('hook.remove'),
        onclick: () => { onSettings({ type: 'settings', webhook: null }); },
      }) : null),
    problem);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const r = webhookMessage(url.value, format.value);
    if (r.error) {
      problem.textContent = t(r.error);
      return;
    }
    onSettings(r.msg);
    url.value = '';  // a secret: not kept in the page once sent
    problem.textContent = t('hook.sent');
  });
  return h('details', { class: 'lobby-clock lobby-hook', 'data-testid': 'webhook', open: !!draft.open },
    h('summary', {}, h('strong', { text: t(title) }), ' ',
      h('span', { 'data-testid': 'hook-summary', 'data-set': set ? '1' : '0', text: t(set ? 'hook.on' : 'hook.off') })),
    h('p', { class: 'muted', text: t(hint) }),
    form);
}
