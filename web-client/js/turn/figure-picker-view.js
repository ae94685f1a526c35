// The figure picker in the action bar (game/figure-picker.js): one button per figure the prepared
// placement offers, each with the figure drawn in the player's colour and its name and
// number of places in words; the picked one is pressed (aria-pressed). Tab reaches them,
// Enter or Space picks; arrows move between them.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { isMyTurn, playerBySeat } from '../game/state.js';
import { entryOf } from './draft.js';
import { pickerFigures, pickedFigure } from '../game/figure-picker.js';
import { figureIcon } from '../tiles/figures-art.js';
import { meepleMarkup } from '../tiles/meeple-art.js';
import { figureById } from '../expansions/registry.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function icon(figure, color) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  const own = figureById(figure);
  svg.setAttribute('viewBox', own?.iconBox ?? '-15 -15 34 30');
  svg.setAttribute('class', 'picker-icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = own?.icon ? own.icon(color) : figure === 'meeple' ? meepleMarkup(0, 0, color) : figureIcon(figure, color);
  return svg;
}

/** Shows the picker while the prepared placement offers special figures. */
export function figurePicker(bar, { state, store, draft, onPick }) {
  let box = bar.querySelector('#figure-picker');
  if (!box) {
    box = h('div', { id: 'figure-picker', class: 'figure-picker', role: 'group', 'data-testid': 'figure-picker' });
    box.addEventListener('keydown', (ev) => {
      // Enter picks here (the room's Enter would confirm the placement).
      if ((ev.key === 'Enter' || ev.key === ' ') && ev.target.closest('button')) {
        ev.target.closest('button').click();
        ev.preventDefault();
        ev.stopPropagation();
        return;
      }
      if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(ev.key)) return;
      const btns = [...box.querySelectorAll('button')];
      const i = btns.indexOf(document.activeElement);
      if (i < 0) return;
      const next = btns[(i + (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp' ? btns.length - 1 : 1)) % btns.length];
      next.focus();
      ev.preventDefault();
      ev.stopPropagation();
    });
    bar.appendChild(box); // a row of its own under the hint and the buttons (expansions.css)
  }
  const entry = state?.phase === 'playing' && isMyTurn(store) && draft && !draft.pending ? entryOf(draft) : null;
  const offered = pickerFigures(entry);
  box.hidden = offered.length < 2; // one figure alone: its spots on the board say which
  box.setAttribute('aria-label', t('picker.label'));
  const picked = pickedFigure(entry, draft);
  const color = playerBySeat(state, store.seat)?.color ?? 'black';
  const key = JSON.stringify([offered, picked, color, t('picker.label')]);
  if (box.dataset.key === key) return;
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.figure : null;
  box.dataset.key = key;
  box.dataset.picked = picked ?? '';
  box.replaceChildren(h('span', { class: 'picker-label', 'aria-hidden': 'true', text: t('picker.label') }), ...offered.map(({ figure, ports }) => {
    const name = t(`figure.${figure}`);
    const label = t('picker.option', { figure: name, n: ports.length });
    const btn = h('button', {
      type: 'button', class: `btn small pick${figure === picked ? ' chosen' : ''}`, 'data-testid': 'pick-figure', 'data-figure': figure,
      'data-count': ports.length, 'aria-pressed': figure === picked ? 'true' : 'false', 'aria-label': label, title: label,
    }, icon(figure, color), h('span', { class: 'pick-name', text: name }));
    btn.addEventListener('click', () => onPick(figure));
    return btn;
  }));
  if (focused) box.querySelector(`button[data-figure="${focused}"]`)?.focus();
}
