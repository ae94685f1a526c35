import test from 'node:test';
import assert from 'node:assert/strict';
import { DICTS, LANGUAGES, t, pickLanguage, errorText, joinNames, listParts, playerName } from '../../web-client/js/i18n/i18n.js';

test('every language has every English key', () => {
  for (const [lang, dict] of Object.entries(DICTS)) {
    for (const key of Object.keys(DICTS.en)) assert.ok(key in dict, `${lang} lacks ${key}`);
  }
});

test('language choice: saved, then browser, then English', () => {
  assert.equal(pickLanguage('fr', ['ja-JP']), 'fr');
  assert.equal(pickLanguage(null, ['ja-JP', 'en']), 'ja');
  assert.equal(pickLanguage(null, ['it-IT', 'fr-CA']), 'fr');
  assert.equal(pickLanguage('xx', ['it']), 'en');
});

test('placeholders and error codes', () => {
  assert.equal(t('bag.left', { n: 3 }, 'en'), '3 tiles left');
  assert.equal(errorText({ code: 'not_your_turn' }, 'fr'), 'Ce n’est pas votre tour.');
  assert.match(errorText({ code: 'brand_new', message: 'nope' }, 'en'), /nope/);
  assert.equal(joinNames(['A', 'B', 'C'], 'en'), 'A, B and C');
});

test('a computer player\'s name is said in the page\'s language; a person\'s name never changes', () => {
  const bot = { seat: 1, name: 'Bot 2 (medium)', bot: 'medium' };
  assert.equal(playerName(bot, 'en'), 'Bot 2');
  assert.equal(playerName(bot, 'fr'), 'Ordinateur 2');
  assert.equal(playerName(bot, 'ja'), 'コンピューター2');
  assert.equal(playerName({ seat: 0, name: 'Bot 2 (medium)', bot: null }, 'fr'), 'Bot 2 (medium)', 'a human may call themselves that');
  assert.equal(playerName({ seat: 2, name: 'Robo', bot: 'hard' }, 'fr'), 'Robo');
  assert.equal(playerName({ seat: 0, name: '<b>Zoé</b>' }, 'ja'), '<b>Zoé</b>');
  assert.equal(playerName(null, 'en'), '');
});

test('plurals through Intl.PluralRules and lists through Intl.ListFormat, in every language', () => {
  assert.equal(t('bag.left', { n: 1 }, 'en'), '1 tile left');
  assert.equal(t('bag.left', { n: 2 }, 'en'), '2 tiles left');
  assert.equal(t('bag.left', { n: 1 }, 'fr'), '1 tuile restante');
  assert.equal(t('bag.left', { n: 0 }, 'fr'), '0 tuile restante', 'French says 0 in the singular');
  assert.equal(t('meeplesLeft', { n: 1 }, 'en'), '1 meeple left');
  assert.equal(t('bag.left', { n: 1 }, 'de'), '1 Plättchen übrig');
  assert.equal(t('bag.left', { n: 1 }, 'es'), 'Queda 1 loseta');
  assert.equal(t('bag.left', { n: 3 }, 'es'), 'Quedan 3 losetas');
  assert.equal(joinNames(['A', 'B'], 'ja'), 'A、B');
  assert.equal(joinNames(['A', 'B', 'C'], 'fr'), 'A, B et C');
  assert.equal(joinNames(['A', 'B', 'C'], 'de'), 'A, B und C');
  assert.equal(joinNames(['A', 'B'], 'es'), 'A y B');
  assert.deepEqual(listParts(3, 'en'), [0, ', ', 1, ' and ', 2]);
});

test('German and Spanish are chosen like the others, and every plural text has the forms its language needs', () => {
  assert.equal(pickLanguage(null, ['de-AT']), 'de');
  assert.equal(pickLanguage(null, ['es-MX', 'en']), 'es');
  assert.ok(LANGUAGES.some((l) => l.code === 'de') && LANGUAGES.some((l) => l.code === 'es'));
  for (const [lang, dict] of Object.entries(DICTS)) {
    const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, v] of Object.entries(dict)) {
      if (typeof v !== 'object') continue;
      for (const c of needed) assert.ok(c in v || 'other' in v, `${lang} ${key} lacks ${c}`);
      assert.ok('other' in v, `${lang} ${key} has an "other" form`);
    }
  }
  for (const lang of ['de', 'es']) {
    for (const key of Object.keys(DICTS.en)) {
      if (/^(app\.title|replay\.count|time\.|clock\.[smhd]$|conn\.closed|replay\.pause|chat\.title|online|offline|ev\.scored|replay\.points|end\.total|replay\.pageTitle)/.test(key)) continue;
      if (typeof DICTS.en[key] === 'string' && DICTS[lang][key] === DICTS.en[key] && /[a-z]{4}/.test(DICTS.en[key])) {
        assert.fail(`${lang} ${key} is still English: ${DICTS.en[key]}`);
      }
    }
  }
});
