// The web client's entry point: the language, the tile catalog, and the page the URL
// asks for (js/routes.js). Each page is its own module.

import { t } from './js/i18n/i18n.js';
import { fetchCatalog } from './js/tiles/tile-catalog.js';
import { defsMarkup } from './js/tiles/tileart.js';
import { parseRoute } from './js/pages/routes.js';
import { $, toast, setupLanguage } from './js/pages/page.js';
import { showHome, returnHome } from './js/home/home.js';
import { RoomPage } from './js/room/room.js';
import { ReplayPage } from './js/replay/replayview.js';
import { TournamentPage } from './js/tournament/tournament.js';
import { offerFrom } from './js/expansions/registry.js';
import { ProfilePage } from './js/community/profile.js';
import { LeaderboardPage } from './js/community/leaderboard.js';

let page = null; // the page shown, told when the language changes

// The catalog comes from the server; if it is restarting, try again with backoff.
async function loadCatalog() {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchCatalog();
    } catch {
      if (attempt === 1) toast(t('home.createFailed'), 'error', 8000);
      await new Promise((r) => setTimeout(r, Math.min(15000, 500 * 2 ** attempt)));
    }
  }
}

async function boot() {
  setupLanguage(() => page?.relabel?.());
  const { catalog, tiles } = await loadCatalog();
  offerFrom(catalog); // the expansions the server plays are the ones offered
  const brand = tiles.D ? `<g id="brand-tile"><use href="#tile-D"/></g>` : '';
  $('defs-root').innerHTML = defsMarkup(catalog) + brand;

  const route = parseRoute(location.pathname, location.search);
  if (route.page === 'room') {
    page = new RoomPage(route.room, { catalog, tiles });
    window.__carc = page; // handy for debugging
    page.enter();
  } else if (route.page === 'tournament') {
    page = new TournamentPage(route.id);
    window.__carc = page;
    await page.enter();
  } else if (route.page === 'replay') {
    page = new ReplayPage({ catalog, tiles });
    window.__carc = page;
    page.openRoom(route.room, route.move);
  } else if (route.page === 'player' || route.page === 'leaderboard') {
    $('view-community').hidden = false;
    page = route.page === 'player' ? new ProfilePage($('view-community'), route.player) : new LeaderboardPage($('view-community'));
    window.__carc = page;
    await page.enter();
  } else {
    // The start page, which may open a record file in the replay viewer.
    const replay = new ReplayPage({ catalog, tiles }, { onClose: returnHome });
    window.__carc = replay;
    const home = showHome({ tiles, openFile: (file, errorEl) => replay.openFile(file, errorEl) });
    page = { relabel: () => { home.relabel(); replay.relabel(); } };
  }
  document.body.dataset.ready = '1';
  performance.mark?.('carc-ready'); // the page is usable (tests/browser/startpage.test.mjs reads it)
}

boot();
