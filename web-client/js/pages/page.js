// What every page shares: element lookup, toasts and the language of the static texts.

import { LANGUAGES, pickLanguage, setLanguage, getLanguage, t } from '../i18n/i18n.js';
import { h } from '../room/panels.js';
import { KEYS, local } from '../platform/storage.js';

export const $ = (id) => document.getElementById(id);

export function toast(text, kind = 'error', ms = 5000) {
  const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-testid': `toast-${kind}`, text });
  $('toasts').appendChild(el);
  setTimeout(() => el.classList.add('out'), ms - 400);
  setTimeout(() => el.remove(), ms);
}

/** Fills the elements marked data-i18n, data-i18n-placeholder and data-i18n-title. */
export function applyStaticI18n(root = document) {
  document.documentElement.lang = getLanguage();
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of root.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', t(e.dataset.i18nLabel));
  for (const e of root.querySelectorAll('[data-i18n-title]')) {
    e.title = t(e.dataset.i18nTitle);
    e.setAttribute('aria-label', t(e.dataset.i18nTitle));
  }
}

/** The language picker: the saved choice, else the browser's. `onChange` redraws the page. */
export function setupLanguage(onChange) {
  const lang = setLanguage(pickLanguage(local.get(KEYS.lang), navigator.languages ?? [navigator.language]));
  const sel = $('lang-select');
  sel.replaceChildren(...LANGUAGES.map((l) => h('option', { value: l.code, text: l.label })));
  sel.value = lang;
  sel.addEventListener('change', () => {
    setLanguage(sel.value);
    local.set(KEYS.lang, sel.value);
    applyStaticI18n();
    onChange();
  });
  applyStaticI18n();
}

/** The sound button in the top bar (a room page): on or off, kept in storage. */
export function bindSoundToggle() {
  $('sound-toggle').hidden = false;
  $('sound-toggle').addEventListener('click', () => {
    local.set(KEYS.sound, local.get(KEYS.sound) === '0' ? '1' : '0');
    renderSoundToggle();
  });
  renderSoundToggle();
}

export function renderSoundToggle() {
  const on = local.get(KEYS.sound) !== '0';
  const btn = $('sound-toggle');
  btn.setAttribute('aria-pressed', on ? 'true' : 'false');
  // The visible word ("Sound") is the button's name; the title says what it does.
  btn.title = t(on ? 'sound.on' : 'sound.off');
  btn.classList.toggle('off', !on);
}
