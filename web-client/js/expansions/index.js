// The expansions this client plays, in the lobby's order: one line each. Base code reads
// them through registry.js only (docs/web-client-expansions.md).

import river from './river/index.js';
import abbot from './abbot/index.js';
import inns from './inns/index.js';
import traders from './traders/index.js';
import princess from './princess/index.js';

export const EXPANSIONS = [river, abbot, inns, traders, princess];
