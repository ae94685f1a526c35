// The Abbot (docs/expansions/abbot.md) as the web client knows it: the abbot (a figure with
// its own art, chip and words, and its take-back), gardens (a feature kind that scores like
// a monastery), the garden copies of tiles, and the end screen's columns.

import { abbotDefs, abbotMarkup, gardenMarkup, GARDEN_RADIUS } from './art.js';
import { abbotChip } from './chip.js';
import { takeBackButton } from './takeback.js';
import * as strings from './strings.js';

export default {
  id: 'abbot',
  figures: [{
    id: 'abbot', order: 4, picker: false,
    markup: (x, y, color, { scale = 1, extraClass = '' } = {}) => abbotMarkup(x, y, color, { scale, extraClass }),
    icon: (color) => abbotMarkup(0, 0, color), iconBox: '-12 -15 32 30',
    chip: abbotChip,
    chosenKey: 'action.abbotChosen',
    logClaim: (li, line, { fill, who }) => fill(li, `log.claimAbbot.${line.feature.kind}`, {}, { name: who(line.seat) }),
  }],
  // A game's players each have an abbot when a replayed state names no figures.
  replayFigures: { abbot: 1 },
  featureKinds: {
    garden: { like: 'monastery', rank: 1, words: 4, shape: { type: 'centre', key: 'garden', radius: GARDEN_RADIUS } },
  },
  // "Eg" is E with a garden: it needs the Abbot and E's own expansion (R6g: R6's too).
  tileCopy: (id) => (/g$/.test(id) ? id.slice(0, -1) : null),
  tileDefs: abbotDefs,
  tileLayers: [{ layer: 'over', markup: gardenMarkup }],
  // An abbot taken back scores its monastery or garden as it stands.
  scoredLine: (ev, common) => (ev.abbot_return === true ? { type: 'abbot_back', ...common } : null),
  lineEvents: { abbot_back: 'scored' },
  logLine(li, line, { fill, who }) {
    if (line.type !== 'abbot_back') return false;
    fill(li, 'log.abbotBack', { points: line.points }, { name: who(line.seats?.[0]) });
    li.classList.add('scored');
    return true;
  },
  breakdown: [{ kind: 'garden', label: 'end.gardens' }, { kind: 'abbot', label: 'end.abbots', part: 'game' }],
  actionControls: takeBackButton,
  strings,
};
