// The lobby's "open game" control (docs/community.md): the host lists the lobby among the
// open games of the start page, or takes it off; the others read whether it is listed. The
// server says so in the welcome's `open` and in {"type":"open"} frames.

import { t } from '../i18n/i18n.js';
import { h } from '../room/panels.js';

/** open: the server's word (true, false, or null before it spoke); onOpen(bool) sends the request. */
export function openSection(open, { isHost, onOpen }) {
  if (isHost) {
    const box = h('input', { type: 'checkbox', 'data-testid': 'open-toggle', checked: open === true });
    box.addEventListener('change', () => onOpen(box.checked));
    return h('div', { class: 'lobby-open' },
      h('label', {}, box, ' ', t('open.toggle')),
      h('span', { class: 'muted', text: t('open.toggleHint') }));
  }
  return open ? h('p', { class: 'muted lobby-open', 'data-testid': 'open-listed', text: t('open.listed') }) : null;
}
