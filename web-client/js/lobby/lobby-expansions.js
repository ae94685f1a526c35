// The lobby's expansions: the host ticks them (one line on what each adds), everybody
// else reads them; the size of the bag they make. Settings go out as protocol messages.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { expansionsOf, toggleMessage } from '../tiles/game-tiles.js';
import { expansionIds, expansionById, offeredIds } from '../expansions/registry.js';

/** opts: {canSet, onSettings(msg), bagSize: number|null} */
export function expansionsSection(state, { canSet, onSettings, bagSize = null }) {
  const on = expansionsOf(state);
  const box = h('fieldset', { class: 'lobby-expansions', 'data-testid': 'expansions', 'data-expansions': on.join(',') },
    h('legend', {}, h('strong', { text: t('lobby.expansions') }),
      bagSize ? h('span', { class: 'muted bag-size', 'data-testid': 'lobby-bag-size', text: ` · ${t('lobby.bagSize', { n: bagSize })}` }) : null));
  if (!canSet && !on.length) box.append(h('p', { class: 'muted', text: t('lobby.expansionsNone') }));
  for (const id of expansionIds()) {
    const checked = on.includes(id);
    if (!checked && (!canSet || !offeredIds().includes(id))) continue; // only what the server plays is offered

    // More seated than five need the expansion that brings the seat: it stays ticked (the server refuses otherwise).
    const locked = (expansionById(id)?.seats ?? 0) > 5 && checked && (state.players ?? []).length > 5;
    const input = h('input', { type: 'checkbox', id: `exp-${id}`, 'data-testid': `expansion-${id}`, checked, disabled: !canSet || locked });
    input.addEventListener('change', () => {
      const msg = toggleMessage(on, id, input.checked);
      if (msg) onSettings(msg);
    });
    box.append(h('label', { class: 'expansion', for: `exp-${id}` }, input,
      h('span', { class: 'exp-text' }, h('strong', { text: t(`exp.${id}`) }), h('span', { class: 'muted exp-what', text: t(`exp.${id}.what`) }))));
  }
  return box;
}
