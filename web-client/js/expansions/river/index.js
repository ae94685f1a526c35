// The River (docs/expansions/river.md) as the web client knows it: the water across its
// tiles (a feature kind with its own shape and art) and its words.

import { riverSegs, pondRadius, RIVER_HALF_WIDTH } from './geometry.js';
import { waterDefs, riverMarkup } from './art.js';
import * as strings from './strings.js';

export default {
  id: 'river',
  featureKinds: {
    river: { rank: -1, words: 5, shape: { type: 'band', list: 'rivers', halfWidth: RIVER_HALF_WIDTH, segs: riverSegs, pond: pondRadius } },
  },
  tileDefs: waterDefs,
  tileLayers: [{ layer: 'under', markup: riverMarkup }],
  strings,
};
