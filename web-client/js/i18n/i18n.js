// English, Japanese, French, German and Spanish strings (strings/, and each expansion's own:
// expansions/registry.js, strings), chosen like one another. t(key, params) fills {name} placeholders, picks plural forms with
// Intl.PluralRules; lists are joined with Intl.ListFormat. The result is always put into
// the page as text, never as HTML.

import { en, ja, fr } from './strings/core.js';
import * as play from './strings/play.js';
import * as signin from './strings/signin.js';
import { de } from './strings/de.js';
import { es } from './strings/es.js';
import { listed } from '../expansions/registry.js';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'ja', label: '日本語' },
  { code: 'fr', label: 'Français' },
  { code: 'de', label: 'Deutsch' },
  { code: 'es', label: 'Español' },
];

Object.assign(en, play.en);
Object.assign(ja, play.ja);
Object.assign(fr, play.fr);
for (const [code, dict] of Object.entries({ en, ja, fr, de, es })) Object.assign(dict, signin[code]);

const RAW = { en, ja, fr, de, es };

// The expansions' words join the dictionaries when they are first read: an expansion's
// modules use t() too, so the registry may still be loading while this module runs.
let withExpansions = false;
function addExpansions() {
  if (withExpansions) return;
  withExpansions = true;
  for (const table of listed('strings')) for (const [code, dict] of Object.entries(RAW)) Object.assign(dict, table[code]);
}
const read = (f) => (target, ...args) => { addExpansions(); return f(target, ...args); };
/** The dictionaries by language code, every file's and every expansion's words merged. */
export const DICTS = new Proxy(RAW, {
  get: read(Reflect.get), has: read(Reflect.has), ownKeys: read(Reflect.ownKeys), getOwnPropertyDescriptor: read(Reflect.getOwnPropertyDescriptor),
});

export function pickLanguage(saved, navigatorLanguages = []) {
  if (saved && DICTS[saved]) return saved;
  for (const l of navigatorLanguages) {
    const code = String(l).toLowerCase().slice(0, 2);
    if (DICTS[code]) return code;
  }
  return 'en';
}

let current = 'en';

export function setLanguage(code) {
  current = DICTS[code] ? code : 'en';
  return current;
}

export function getLanguage() {
  return current;
}

const pluralRules = new Map();
/** The plural category of n in a language ('one', 'few', 'other'...), by Intl.PluralRules. */
export function pluralOf(n, lang = current) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang).select(Number(n));
}

/**
 * A text with its {name} placeholders filled. A text that depends on a number is an object
 * of plural forms ({one, other}, and whatever else the language has), chosen by params.n.
 */
/** Whether the language has its own text for `key` (a more precise wording to prefer). */
export function hasText(key, lang = current) {
  return DICTS[lang]?.[key] !== undefined;
}

export function t(key, params = {}, lang = current) {
  let s = DICTS[lang]?.[key] ?? en[key] ?? key;
  if (typeof s === 'object') {
    const dict = DICTS[lang]?.[key] ? lang : 'en';
    s = s[pluralOf(params.n ?? 0, dict)] ?? s.other;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

// English lists without the serial comma ("A, B and C"), as the rest of the page writes.
const LIST_LOCALE = { en: 'en-GB' };
const listFormats = new Map();
function listFormat(lang) {
  if (!listFormats.has(lang)) listFormats.set(lang, new Intl.ListFormat(LIST_LOCALE[lang] ?? lang, { type: 'conjunction' }));
  return listFormats.get(lang);
}

/** Joins names the way the language does ("A, B and C", "A、B、C"), by Intl.ListFormat. */
export function joinNames(names, lang = current) {
  return listFormat(lang).format(names.map(String));
}

/**
 * A list of n items as parts: numbers (the index of an item) and the words between them,
 * so that elements (name spans) can be joined the way the language does.
 */
export function listParts(n, lang = current) {
  const marks = Array.from({ length: n }, (_, i) => `\u0001${i}\u0001`);
  const out = [];
  for (const part of listFormat(lang).format(marks).split('\u0001')) {
    if (/^\d+$/.test(part)) out.push(Number(part));
    else if (part) out.push(part);
  }
  return out;
}

/**
 * The name shown for a player: the server names a computer player "Bot <seat+1> (<level>)"
 * (docs/protocol.md), which is said in the page's language, without the level
 * (the bot badge beside the name says it); any other name as it is.
 */
export function playerName(p, lang = current) {
  const name = String(p?.name ?? '');
  const m = p?.bot ? /^Bot (\d+) \((easy|medium|hard)\)$/.exec(name) : null;
  return m ? t('bot.name', { n: m[1] }, lang) : name;
}

/** The message shown for a server error. */
export function errorText(err, lang = current) {
  const key = `err.${err?.code}`;
  if (DICTS[lang]?.[key] || en[key]) return t(key, {}, lang);
  return t('err.unknown', { message: err?.message ?? err?.code ?? '?' }, lang);
}

// The replay viewer's, "your games"' and the lobby's strings live in their own file, and
// so do the board's words for assistive technology and placing.
import * as games from './strings/games.js';
import * as boardWords from './strings/board.js';
import * as expansions from './strings/expansions.js';

for (const [code, dict] of Object.entries(RAW)) {
  Object.assign(dict, games[code], boardWords[code], expansions[code]);
}

// Turn-based games, player keys and notifications.
import * as turnbased from './strings/turnbased.js';

for (const [code, dict] of Object.entries(RAW)) Object.assign(dict, turnbased[code]);

// Hints.
import * as hints from './strings/hints.js';

for (const [code, dict] of Object.entries(RAW)) Object.assign(dict, hints[code]);

// Open games, quick play and players' names (docs/community.md).
import * as community from './strings/community.js';

for (const [code, dict] of Object.entries(RAW)) Object.assign(dict, community[code]);

// The ratings' pages: the leaderboard, players' pages, rating changes (docs/community.md).
import * as ranking from './strings/ranking.js';
// The tournament page (docs/tournaments.md).
import * as tournaments from './strings/tournaments.js';

for (const [code, dict] of Object.entries(RAW)) Object.assign(dict, ranking[code], tournaments[code]);

// The rule options (docs/options.md).
import * as options from '../options/strings.js';

for (const [code, dict] of Object.entries(RAW)) Object.assign(dict, options[code]);
