// The service worker (docs/turn-based.md): shows a Web Push ("your turn", "game over") as a system
// notification even when no tab of the game is open, and opens the game's link on a click.
// Its payload is the server's JSON: {id, event, room, seat, name, url, title, body}.

self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const title = typeof data.title === 'string' ? data.title : 'Carcassonne';
  const url = typeof data.url === 'string' ? data.url : '/';
  event.waitUntil(Promise.all([
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.room === 'string' ? `carc-${data.room}` : 'carc', // one per game: a newer turn replaces it
      icon: '/favicon.svg',
      data: { url, id: data.id },
    }),
    // Open pages of the app hear of it too (tests, and a page that wants to react).
    self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      .then((list) => list.forEach((c) => c.postMessage({ type: 'push', payload: data }))),
  ]));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data?.url ?? '/';
  event.waitUntil((async () => {
    const path = new URL(url, self.location.origin).pathname;
    for (const c of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
      if (new URL(c.url).pathname === path && 'focus' in c) return c.focus();
    }
    return self.clients.openWindow(url);
  })());
});

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
