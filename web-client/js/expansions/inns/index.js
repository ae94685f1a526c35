// Inns & Cathedrals (docs/expansions/inns-cathedrals.md) as the web client knows it: the
// sixth seat, the big meeple (strength 2), inns and cathedrals (marks on roads and cities
// that raise their points, or leave them at nothing unfinished) and the end screen's columns.

import { t } from '../../i18n/i18n.js';
import { innsDefs, bigBody } from './art.js';
import * as strings from './strings.js';

export default {
  id: 'inns',
  seats: 6,
  figures: [{ id: 'big', order: 1, picker: true, strength: 2, body: bigBody }],
  tileDefs: innsDefs,
  tileMarks: (f) => (f.kind === 'road' && f.inn ? 'inn' : f.kind === 'city' && f.cathedral ? 'cathedral' : null),
  // Points per tile (and coat of arms) once complete; nothing while unfinished.
  featureMarks: [{ flag: 'inn', on: 'road', perTile: 2 }, { flag: 'cathedral', on: 'city', perTile: 3 }],
  tileWords: (f) => [f.inn ? t('tile.inn') : null, f.cathedral ? t('tile.cathedral') : null].filter(Boolean),
  // An unfinished inn road or cathedral city: its loss at the end shows in the road's or city's column.
  breakdown: [{ kind: 'inn', label: 'end.inn', folds: 'road' }, { kind: 'cathedral', label: 'end.cathedral', folds: 'city' }],
  strings,
};
