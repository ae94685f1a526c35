// The Abbot's take-back in the action bar (docs/expansions/abbot.md): "take your abbot back:
// +N", with N the server's return_points for the chosen placement. The choice itself lives
// in the draft (game/figure-spots.js: RETURN); turn/expansion-controls.js hands over the
// prepared placement's take-back ({x, y, points} or null).

import { t } from '../../i18n/i18n.js';
import { h } from '../../platform/dom.js';

/** Shows the take-back button while the prepared placement offers it. */
export function takeBackButton(bar, { draft, takeBack: r, RETURN, onChoose }) {
  const row = bar.querySelector('.action-buttons');
  if (!row) return;
  let btn = row.querySelector('#btn-take-back');
  if (!btn) {
    btn = h('button', { type: 'button', class: 'btn take-back', id: 'btn-take-back', 'data-testid': 'take-back' });
    btn.addEventListener('click', () => onChoose(RETURN));
    row.insertBefore(btn, row.querySelector('#btn-no-meeple'));
  }
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
