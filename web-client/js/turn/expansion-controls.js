// The action bar's controls beyond the base game, in one call from room.js: each expansion's
// own (expansions/registry.js: actionControls, e.g. a take-back) and the figure picker
// (figure-picker-view.js).

import { figurePicker } from './figure-picker-view.js';
import { pickFigure } from '../game/figure-picker.js';
import { isMyTurn } from '../game/state.js';
import { entryOf } from './draft.js';
import { entryReturn, RETURN } from '../game/figure-spots.js';
import { hooks } from '../expansions/registry.js';

/** ctx: {state, store, draft, onChoose(choice), onDraft(nextDraft)} */
export function expansionControls(bar, { state, store, draft, onChoose, onDraft }) {
  const entry = state?.phase === 'playing' && isMyTurn(store) && draft && !draft.pending ? entryOf(draft) : null;
  for (const controls of hooks('actionControls')) controls(bar, { draft, takeBack: entryReturn(entry), RETURN, onChoose });
  figurePicker(bar, { state, store, draft, onPick: (figure) => onDraft(pickFigure(draft, figure)) });
}
