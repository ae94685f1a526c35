import test from 'node:test';
import assert from 'node:assert/strict';
import { DICTS, t, pickLanguage, errorText, joinNames, playerName } from '../../web-client/js/i18n.js';

test('every language has every English key', () => {
  for (const [lang, dict] of Object.entries(DICTS)) {
    for (const key of Object.keys(DICTS.en)) assert.ok(key in dict, `${lang} lacks ${key}`);
  }
});

test('language choice: saved, then browser, then English', () => {
  assert.equal(pickLanguage('fr', ['ja-JP']), 'fr');
  assert.equal(pickLanguage(null, ['ja-JP', 'en']), 'ja');
  assert.equal(pickLanguage(null, ['de-DE', 'fr-CA']), 'fr');
  assert.equal(pickLanguage('xx', ['de']), 'en');
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
