// The lobby's rule options (docs/options.md), beside the expansions: the host ticks them,
// everybody else reads the room's choice. Settings go out as protocol messages.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { optionIds, optionsOf, optionToggleMessage } from '../options/registry.js';

/** opts: {canSet, onSettings(msg)} */
export function optionsSection(state, { canSet, onSettings }) {
  const on = optionsOf(state);
  const box = h('fieldset', { class: 'lobby-expansions lobby-options', 'data-testid': 'options', 'data-options': on.join(',') },
    h('legend', {}, h('strong', { text: t('lobby.options') })));
  if (!canSet && !on.length) box.append(h('p', { class: 'muted', text: t('lobby.optionsNone') }));
  for (const id of optionIds()) {
    const checked = on.includes(id);
    if (!checked && !canSet) continue;
    const input = h('input', { type: 'checkbox', id: `opt-${id}`, 'data-testid': `option-${id}`, checked, disabled: !canSet });
    input.addEventListener('change', () => {
      const msg = optionToggleMessage(on, id, input.checked);
      if (msg) onSettings(msg);
    });
    box.append(h('label', { class: 'expansion', for: `opt-${id}` }, input,
      h('span', { class: 'exp-text' }, h('strong', { text: t(`opt.${id}`) }), h('span', { class: 'muted exp-what', text: t(`opt.${id}.what`) }))));
  }
  return box;
}
