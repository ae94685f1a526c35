// The expansions' controls in the room's action bar, in one call from room.js: the abbot's
// take-back (takeback.js) and the figure picker (picker-view.js).

import { takeBackButton } from '../expansions/abbot/takeback.js';
import { figurePicker } from './figure-picker-view.js';
import { pickFigure } from '../game/figure-picker.js';

/** ctx: {state, store, draft, onChoose(choice), onDraft(nextDraft)} */
export function expansionControls(bar, { state, store, draft, onChoose, onDraft }) {
  takeBackButton(bar, { state, store, draft, onChoose });
  figurePicker(bar, { state, store, draft, onPick: (figure) => onDraft(pickFigure(draft, figure)) });
}
