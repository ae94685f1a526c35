// The replay viewer's way to games with expansions (event-replay.js): a room's game from the
// room's own events (its public state, read once as a spectator), a record file replayed by
// the server (POST /api/replay); a refusal or an unreachable server becomes the problem text.

import { t } from '../i18n/i18n.js';
import { recordExpansionReplay, roomExpansionReplay } from './event-replay.js';
import { wsUrl } from '../platform/net.js';

/** Whether the server's engine replays `record`: expansions, or rule options (docs/options.md). */
export function hasExpansions(record) {
  const some = (list) => Array.isArray(list) && list.length > 0;
  return some(record?.expansions) || some(record?.options);
}

/** -> {replay} | {problem: text} */
export async function expansionReplay(record, tiles, opts) {
  const r = await recordExpansionReplay(record, tiles, opts);
  if (r.replay) return r;
  const { move, message } = r.problem;
  if (!message) return { problem: t('replay.expansions', { expansions: (record.expansions ?? []).join(', ') }) };
  return { problem: move === null ? t('replay.badFile', { reason: message }) : t('replay.badMove', { n: move + 1, reason: message }) };
}

/** A room's game: -> {replay} | {problem: text} */
export async function roomReplay(record, room, tiles) {
  const replay = await roomExpansionReplay(record, room, tiles, { wsUrl: wsUrl(location, room) });
  return replay ? { replay } : { problem: t('replay.expansions', { expansions: (record.expansions ?? []).join(', ') }) };
}
