// A room page's "Tell me when it is my turn" (notify.js): a seated player's click asks the
// browser (never on load); shown in the lobby card and under the players of the room
// itself. RoomPage's methods (room.js mixes them in).

import { getLanguage } from '../i18n/i18n.js';
import { playerBySeat } from '../game/state.js';
import { $ } from '../pages/page.js';
import { KEYS, local } from '../platform/storage.js';
import { enableNotifications, notifyStatus, notifyControl, notifyAvailable, notifyPermission } from '../platform/notify.js';

export const notifyActions = {
  notifyState() {
    const { state, seat } = this.store;
    return notifyStatus({
      seated: seat !== null && seat !== undefined && !!playerBySeat(state, seat), turnBased: state?.settings?.pace === 'turn_based',
      available: notifyAvailable(), permission: notifyPermission(), ...this.notify,
    });
  },

  async enableNotify() {
    this.notify.asking = true;
    this.render();
    const r = await enableNotifications((m) => this.send(m)).catch(() => 'unsupported');
    this.notify = { ...this.notify, asking: false, outcome: r, subscribed: this.notify.subscribed || r === 'enabled' };
    if (r === 'enabled') local.set(KEYS.notify(this.room), '1');
    this.render();
  },

  /** The opt-in under the players (the lobby card draws its own). */
  renderNotify(status, phase) {
    const slot = $('notify-slot');
    const key = JSON.stringify([getLanguage(), phase === 'lobby' ? null : status]);
    if (slot.dataset.key === key) return;
    slot.dataset.key = key;
    const el = phase === 'lobby' ? null : notifyControl(status, () => this.enableNotify());
    slot.replaceChildren(...(el ? [el] : []));
    slot.hidden = !el;
  },
};
