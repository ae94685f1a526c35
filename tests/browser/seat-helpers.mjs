// Set-ups shared by the board's browser tests: a game played from node up to a turn of seat 0,
// then handed to a page holding seat 0's token.

import { startRoom, playUntil, spreadPick, openWithToken } from './wsclient.mjs';

export const LAPTOP = { viewport: { width: 1366, height: 768 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * A game of `names` played from node until `ready(state)` on a turn of seat 0; seat 0's
 * client closes and a page takes the seat. Returns {room, clients, page, ctx, errors}.
 */
export async function pageOnTurn(browser, server, { names = ['Ann', 'Ben'], ready = () => true, ctxOptions = LAPTOP } = {}) {
  const { room, clients } = await startRoom(server.base, names);
  await playUntil(clients, (s) => s.turn.seat === 0 && ready(s), (l, s, i) => spreadPick(l, s, i));
  const token = clients[0].token;
  await clients[0].close();
  const { ctx, page } = await openWithToken(browser, server.base, room, token, ctxOptions);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.waitForSelector('#view-room[data-my-turn="1"]');
  await page.waitForFunction(() => document.getElementById('board').dataset.moving !== '1');
  return { room, clients: clients.slice(1), page, ctx, errors, token };
}

/** The legal cells shown that can be clicked where they are, with their number of rotations. */
export function clickableCells(page) {
  return page.evaluate(() => {
    const legal = window.__carc.store.state.turn.legal;
    return [...document.querySelectorAll('[data-testid="cell"]')].map((g) => {
      const r = g.querySelector('rect').getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const x = Number(g.dataset.x);
      const y = Number(g.dataset.y);
      const options = legal.filter((l) => l.x === x && l.y === y);
      return { x, y, clickable: !!hit && g.contains(hit), rotations: options.length, spots: Math.max(...options.map((o) => o.meeples.length)) };
    }).filter((c) => c.clickable);
  });
}

/** A point on the tile being placed that is on no meeple spot (where a click turns it). */
export async function ghostPoint(page) {
  // Once the tile has finished turning.
  await page.waitForFunction(() => !document.getAnimations().some((a) => /ghost-turn/.test(a.animationName ?? '') && a.playState === 'running'));
  return page.evaluate(() => {
    const g = document.querySelector('[data-testid="ghost"]');
    const r = g.querySelector('.ghost-frame').getBoundingClientRect();
    for (let i = 1; i < 10; i++) {
      for (let j = 1; j < 10; j++) {
        const x = r.left + (r.width * i) / 10;
        const y = r.top + (r.height * j) / 10;
        const hit = document.elementFromPoint(x, y);
        if (hit && g.contains(hit) && !hit.closest('[data-spot]')) return { x, y };
      }
    }
    return null;
  });
}

export async function settled(page) {
  await page.waitForFunction(() => document.getElementById('board').dataset.moving !== '1');
  await page.waitForTimeout(40);
}

/**
 * The legal cells clickable where they are (clickableCells); when none of them is what
 * `wanted` asks for, the board is fitted once and they are listed again.
 */
export async function cellsInView(page, wanted = (cells) => cells.length > 0) {
  const cells = await clickableCells(page);
  if (wanted(cells)) return cells;
  await page.click('[data-testid="fit"]');
  await settled(page);
  return clickableCells(page);
}

/**
 * Whether the element is drawn, wholly inside the window and the boxes that clip it, and
 * not covered at its middle (a click there reaches it).
 */
export function inView(page, selector) {
  return page.evaluate((sel) => {
    const el = [...document.querySelectorAll(sel)].find((e) => e.checkVisibility());
    if (!el) return false;
    const r = el.getBoundingClientRect();
    let clip = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(s.overflowY + s.overflowX)) continue;
      const b = p.getBoundingClientRect();
      clip = { left: Math.max(clip.left, b.left), top: Math.max(clip.top, b.top), right: Math.min(clip.right, b.right), bottom: Math.min(clip.bottom, b.bottom) };
    }
    const inside = r.width > 0 && r.left >= clip.left - 0.5 && r.top >= clip.top - 0.5 && r.right <= clip.right + 0.5 && r.bottom <= clip.bottom + 0.5;
    const hit = inside && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (el.contains(hit) || hit.contains(el) || hit === el.closest('label'));
  }, selector);
}
