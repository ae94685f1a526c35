// The Abbot's choices in the action bar (docs/expansions/abbot.md): "take your abbot back: +N", with N the
// server's return_points for the chosen placement, and the hint for an abbot or a
// take-back chosen. The choice itself lives in the draft (abbot.js: "return").

import { t } from '../../i18n/i18n.js';
import { h } from '../../platform/dom.js';
import { isMyTurn } from '../../game/state.js';
import { entryOf } from '../../turn/draft.js';
import { featureAt } from '../../tiles/geometry.js';
import { entryReturn, parseSpot, RETURN } from '../../game/figure-spots.js';

/** The hint line for a chosen figure spot or take-back (null: a meeple, roomview.js says it). */
export function choiceHint(tileDef, entry, choice) {
  if (choice === RETURN) {
    const r = entryReturn(entry);
    return t('action.takeBackChosen', { points: r?.points ?? '?' });
  }
  const s = parseSpot(choice);
  if (!s) return null;
  const kind = (tileDef && featureAt(tileDef, entry.rotation, s.port)?.kind) ?? 'road';
  if (s.figure === 'abbot') return t('action.abbotChosen', { feature: t(`feature.${kind}`) });
  return t('action.meepleChosen', { feature: t(`feature.${kind}`) });
}

/** Shows the take-back button while the prepared placement offers it. */
export function takeBackButton(bar, { state, store, draft, onChoose }) {
  const row = bar.querySelector('.action-buttons');
  if (!row) return;
  let btn = row.querySelector('#btn-take-back');
  if (!btn) {
    btn = h('button', { type: 'button', class: 'btn take-back', id: 'btn-take-back', 'data-testid': 'take-back' });
    btn.addEventListener('click', () => onChoose(RETURN));
    row.insertBefore(btn, row.querySelector('#btn-no-meeple'));
  }
  const entry = state?.phase === 'playing' && isMyTurn(store) && draft && !draft.pending ? entryOf(draft) : null;
  const r = entryReturn(entry);
  const chosen = !!r && draft.meeple === RETURN;
  // The abbot that would come back is marked on the board while the take-back is chosen
  // (the board redraws a layer only when it changes, so a mark no longer meant goes here).
  for (const el of document.querySelectorAll('#board [data-testid="board-meeple"].returning')) el.classList.remove('returning');
  if (chosen) document.querySelector(`#board [data-testid="board-meeple"][data-figure="abbot"][data-x="${r.x}"][data-y="${r.y}"]`)?.classList.add('returning');
  btn.hidden = !r;
  if (!r) return;
  btn.textContent = t('action.takeBack', { points: r.points ?? '?' });
  btn.dataset.points = r.points ?? '';
  btn.dataset.x = r.x;
  btn.dataset.y = r.y;
  btn.classList.toggle('chosen', chosen);
  btn.setAttribute('aria-pressed', chosen ? 'true' : 'false');
}
