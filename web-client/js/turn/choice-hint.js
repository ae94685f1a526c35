// The action bar's line for a chosen figure spot or take-back, when the board's spot has no
// words of its own: "take-back chosen: +N", "<figure> on the <feature>" (a figure may say
// it its own way: expansions/registry.js, figures[].chosenKey).

import { t } from '../i18n/i18n.js';
import { featureAt } from '../tiles/geometry.js';
import { entryReturn, parseSpot, RETURN } from '../game/figure-spots.js';
import { figureById, ask } from '../expansions/registry.js';

/** The hint line for a chosen figure spot or take-back (null: nothing chosen that it can read). */
export function choiceHint(tileDef, entry, choice) {
  if (choice === RETURN) {
    const r = entryReturn(entry);
    return t('action.takeBackChosen', { points: r?.points ?? '?' });
  }
  const s = parseSpot(choice);
  if (!s) return ask('actionWords', choice, entry); // an expansion's own choice (expansions/registry.js)
  const kind = (tileDef && featureAt(tileDef, entry.rotation, s.port)?.kind) ?? 'road';
  return t(figureById(s.figure)?.chosenKey ?? 'action.meepleChosen', { feature: t(`feature.${kind}`) });
}
