// The client's URLs: which page a location shows, and the paths of rooms and replays.
// Pure: no DOM, so node can test it.

const ROOM_ID = '[A-Za-z0-9_-]+';
const ROOM_RE = new RegExp(`^/r/(${ROOM_ID})/?$`);
const REPLAY_RE = new RegExp(`^/replay/(${ROOM_ID})/?$`);
const PLAYER_RE = /^\/p\/([^/]*)\/?$/;
const TOURNAMENT_RE = new RegExp(`^/t/(${ROOM_ID})/?$`);

/** The step asked for by `?move=K` (a whole number >= 0), or null. */
export function moveParam(search) {
  const v = new URLSearchParams(search ?? '').get('move');
  if (v === null || !/^\d{1,6}$/.test(v.trim())) return null;
  return Number(v.trim());
}

/**
 * {page: 'room', room} | {page: 'replay', room, move} | {page: 'player', player} |
 * {page: 'leaderboard'} | {page: 'tournament', id} | {page: 'home'}. A player's id is
 * checked by its page.
 */
export function parseRoute(pathname, search = '') {
  let m = ROOM_RE.exec(pathname ?? '');
  if (m) return { page: 'room', room: m[1] };
  m = REPLAY_RE.exec(pathname ?? '');
  if (m) return { page: 'replay', room: m[1], move: moveParam(search) };
  m = PLAYER_RE.exec(pathname ?? '');
  if (m) {
    let player = m[1];
    try { player = decodeURIComponent(player); } catch { /* left as it is: the page refuses it */ }
    return { page: 'player', player };
  }
  if (/^\/leaderboard\/?$/.test(pathname ?? '')) return { page: 'leaderboard' };
  m = TOURNAMENT_RE.exec(pathname ?? '');
  if (m) return { page: 'tournament', id: m[1] };
  return { page: 'home' };
}

export const roomPath = (room) => `/r/${encodeURIComponent(room)}`;
export const tournamentPath = (id) => `/t/${encodeURIComponent(id)}`;

export function replayPath(room, move = null) {
  return `/replay/${encodeURIComponent(room)}${move === null || move === undefined ? '' : `?move=${move}`}`;
}

export const inviteUrl = (origin, room) => `${origin}${roomPath(room)}`;
