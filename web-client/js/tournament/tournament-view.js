// What the tournament page shows (docs/tournaments.md), from GET /api/tournaments/<id>:
// pure functions of the answer, so node can test them.

/** The entrants' names by public id (a removed or unknown id shows as itself). */
export function namesOf(t) {
  return new Map((t.entrants ?? []).map((e) => [e.player, e.name]));
}

/** Points as shown: whole numbers plain, others with up to two decimals. */
export function pointsText(p) {
  return Number.isInteger(p) ? String(p) : String(Math.round(p * 100) / 100);
}

/** The standings' rows: [{rank, name, points, buchholz, scored, dropped}] (knockout: rank and name). */
export function standingRows(t) {
  const names = namesOf(t);
  return (t.standings ?? []).map((s) => ({
    rank: s.rank,
    player: s.player,
    name: names.get(s.player) ?? s.player,
    points: s.points === undefined ? null : pointsText(s.points),
    buchholz: s.buchholz === undefined ? null : pointsText(s.buchholz),
    scored: s.scored ?? null,
    dropped: Boolean(s.dropped),
  }));
}

/** Each round's tables, newest round first: [{round, tables: [{key, seats: [{name, score, place, gone}], room, bye, done}]}]. */
export function roundRows(t) {
  const names = namesOf(t);
  return [...(t.rounds ?? [])].reverse().map((r) => ({
    round: r.round,
    tables: r.tables.map((x) => ({
      key: `${r.round}-${x.table}-${x.game}`,
      table: x.table,
      game: x.game,
      room: x.room,
      bye: x.bye,
      done: Boolean(x.result),
      seats: x.players.map((p) => {
        const seat = x.result?.find((s) => s.player === p);
        return { player: p, name: names.get(p) ?? p, score: seat?.score ?? null, place: seat?.place ?? null, gone: Boolean(seat?.gone) };
      }),
    })),
  }));
}

/** Whether `player` (a public id, or null) is registered and not dropped. */
export function isEntrant(t, player) {
  return Boolean(player) && (t.entrants ?? []).some((e) => e.player === player && e.dropped_after === null);
}
