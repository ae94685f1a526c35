// How many games wait for this player, in the page's title ("(2) Carcassonne") and its
// favicon (a badge with the count: /favicon-N.svg, static files, since the page's policy
// allows no data: images).

let baseTitle = null;

export function faviconFor(n) {
  return n > 0 ? `/favicon-${Math.min(n, 9)}.svg` : '/favicon.svg';
}

export function titleFor(base, n) {
  return n > 0 ? `(${n}) ${base}` : base;
}

/** Shows `n` games waiting (0: none). */
export function showWaiting(n, doc = globalThis.document) {
  if (!doc) return;
  if (baseTitle === null) baseTitle = doc.title.replace(/^\(\d+\) /, '');
  doc.title = titleFor(baseTitle, n);
  const link = doc.querySelector('link[rel="icon"]');
  if (link) link.setAttribute('href', faviconFor(n));
}
