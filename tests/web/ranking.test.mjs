// The ratings' pages' pure parts (docs/community.md, "The pages"): the rating chart's
// layout, the leaderboard's query in the address, the routes of /p/<id> and /leaderboard,
// and the open games' host line with its rating.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ratingChart } from '../../web-client/js/community/ratingchart.js';
import { boardQuery, boardSearch } from '../../web-client/js/community/leaderboard.js';
import { parseRoute } from '../../web-client/js/pages/routes.js';
import { hostText } from '../../web-client/js/home/opengames.js';
import { changeText, ratingText, setText } from '../../web-client/js/community/format.js';
import { setLanguage } from '../../web-client/js/i18n/i18n.js';

test('the rating chart: one dot a game, oldest left, higher ratings higher, ticks around every value', () => {
  const L = ratingChart([{ at: 1, rating: 2 }, { at: 2, rating: 5.5 }, { at: 3, rating: -1 }], { w: 600, h: 200 });
  assert.equal(L.dots.length, 3);
  assert.ok(L.dots[0].x < L.dots[1].x && L.dots[1].x < L.dots[2].x);
  assert.ok(L.dots[1].y < L.dots[0].y && L.dots[0].y < L.dots[2].y, 'up is better');
  assert.equal(L.first, 2);
  assert.equal(L.last, -1);
  assert.equal(L.max, 5.5);
  assert.equal(L.min, -1);
  const ticks = L.yTicks.map((t) => t.v);
  assert.ok(Math.min(...ticks) <= -1 && Math.max(...ticks) >= 5.5);
  assert.match(L.d, /^M[\d.]+ [\d.]+ L[\d.]+ [\d.]+ L[\d.]+ [\d.]+$/);
  for (const d of L.dots) assert.ok(d.x >= L.plot.x && d.x <= L.plot.x + L.plot.w && d.y >= L.plot.y - 0.01 && d.y <= L.plot.y + L.plot.h + 0.01);
  const one = ratingChart([{ at: 1, rating: 3 }]);
  assert.equal(one.dots.length, 1, 'a single game is one dot, in the middle');
  assert.equal(one.dots[0].x, one.plot.x + one.plot.w / 2);
  assert.equal(ratingChart([]).d, '');
});

test('the leaderboard\'s address: pace and the exact set, read back as written', () => {
  assert.deepEqual(boardQuery(''), { pace: 'live', expansions: null });
  assert.deepEqual(boardQuery('?pace=turn-based&expansions=river,abbot'), { pace: 'turn-based', expansions: ['river', 'abbot'] });
  assert.deepEqual(boardQuery('?expansions='), { pace: 'live', expansions: [] }, 'the base game alone');
  assert.equal(boardSearch({ pace: 'live', expansions: null }), 'pace=live');
  assert.equal(boardSearch({ pace: 'turn-based', expansions: ['river', 'abbot'] }), 'pace=turn-based&expansions=river,abbot');
  assert.equal(boardSearch({ pace: 'live', expansions: [] }), 'pace=live&expansions=');
});

test('routes: a player\'s page and the leaderboard', () => {
  assert.deepEqual(parseRoute('/p/AAAAAAAAAAAAAAA0'), { page: 'player', player: 'AAAAAAAAAAAAAAA0' });
  assert.deepEqual(parseRoute('/p/%E0'), { page: 'player', player: '%E0' }, 'a bad escape is left for the page to refuse');
  assert.deepEqual(parseRoute('/leaderboard'), { page: 'leaderboard' });
  assert.deepEqual(parseRoute('/leaderboards'), { page: 'home' });
});

test('the open games\' host line says the host\'s rating, or that there is none yet; numbers in the page\'s language', () => {
  setLanguage('en');
  assert.equal(hostText({ host: 'Ann', rating: 12.345 }), 'Host: Ann · rating 12.3');
  assert.equal(hostText({ host: 'Ann', rating: null }), 'Host: Ann · not rated yet');
  assert.equal(changeText(1.25), '+1.3');
  assert.equal(changeText(-0.5), '−0.5');
  assert.equal(setText('river'), 'The River');
  assert.equal(setText(''), 'Base game');
  setLanguage('fr');
  assert.equal(ratingText(12.345), '12,3');
  assert.equal(hostText({ host: 'Ann', rating: 3 }), 'Hôte : Ann · classement 3,0');
  setLanguage('en');
});
