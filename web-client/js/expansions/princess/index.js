// The Princess & the Dragon (docs/web-client-expansions.md, "The Princess & the Dragon") as
// the web client knows it: the tiles' symbols (volcano, dragon, magic portal, the princess in
// her city), the dragon and the fairy on the board, the dragon's move (a stage of the turn
// whose steps the seats choose in turn), the figure step's other choices (a follower through
// the portal, the princess sending a knight home, the fairy moved), the volcano's "no
// figure", the log's lines and the end screen's fairy column.

import { t } from '../../i18n/i18n.js';
import { princessDefs } from './art.js';
import { dragonTurnStage } from './dragon.js';
import { entryActions, actionFields, parseChoice, noFigureReason } from './choices.js';
import { princessLayer, princessAction } from './board-layer.js';
import { princessLine, fairyScoredLine, princessLogLine, portalCell, figuresGone, portalNote, piecesAfter } from './log.js';
import * as strings from './strings.js';

// The catalog's tile symbols and the mark each shows (#sym-<mark>, art.js).
const SYMBOL_MARKS = { volcano: 'volcano', dragon: 'dragonmark', portal: 'portal' };

/** A whole tile's mark: its symbol, and a princess tile's own when no city carries the flag. */
export function tileSymbol(tile) {
  if (tile?.symbol === 'princess') return (tile.features ?? []).some((f) => f.princess === true) ? null : 'princess';
  return SYMBOL_MARKS[tile?.symbol] ?? null;
}

/** The action bar's words for a chosen portal, princess or fairy choice. */
export function actionWords(choice) {
  const c = parseChoice(choice);
  if (!c) return null;
  return t(`princess.chosen.${c.kind}`, { x: c.x, y: c.y, figure: t(`figure.${c.figure}`) });
}

export default {
  id: 'princess',
  tileDefs: princessDefs,
  tileMarks: (f) => (f.kind === 'city' && f.princess === true ? 'princess' : null),
  tileSymbol,
  tileWords: (f) => (f.princess === true ? [t('tile.princess')] : []),
  entryActions,
  actionFields,
  actionWords,
  figureNote: noFigureReason,
  turnStage: dragonTurnStage,
  boardLayer: princessLayer,
  boardAction: princessAction,
  eventLine: princessLine,
  scoredLine: fairyScoredLine,
  logLine: princessLogLine,
  figureCell: portalCell,
  figuresGone,
  placedNote: portalNote,
  replayState: piecesAfter,
  lineEvents: { dragon_flew: 'dragon_flew', dragon_step: 'dragon_step', dragon_tiles: 'dragon_tiles', fairy_moved: 'fairy', princess: 'princess', fairy_points: 'scored' },
  breakdown: [{ kind: 'fairy', label: 'end.fairy' }],
  strings,
};
