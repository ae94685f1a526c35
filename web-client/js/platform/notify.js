// Being told it is your turn (docs/turn-based.md). In the page: a system notification when the
// turn comes while the tab is hidden (the title and the sound already tell). With the page
// closed: Web Push through the service worker (sw.js). Permission is asked on a click only,
// never on load: "Tell me when it is my turn", in the lobby card and under the players of
// a turn-based room.

import { t } from '../i18n/i18n.js';
import { h } from './dom.js';

const supported = () => typeof Notification !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in globalThis;

function keyBytes(b64url) {
  const s = atob(b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64url.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** Whether the browser lets the page notify now. */
export function notifyGranted() {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

/**
 * On a click: asks permission, registers the service worker, subscribes to pushes with the
 * server's VAPID key and hands the subscription to `send` (push_subscribe for this seat).
 * Returns 'enabled', 'denied' or 'unsupported'.
 */
export async function enableNotifications(send) {
  if (!supported()) return 'unsupported';
  const asked = await Notification.requestPermission();
  permission = asked;
  if (asked !== 'granted') return 'denied';
  const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const res = await fetch('/api/push/key');
  if (!res.ok) return 'unsupported';
  const { public_key: key } = await res.json();
  let sub = await reg.pushManager.getSubscription();
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  send({ type: 'push_subscribe', subscription: sub.toJSON() });
  return 'enabled';
}

/** Sends this seat's existing subscription again (a new seat, or after a reconnect); true if sent. */
export async function resubscribe(send) {
  if (!supported() || !notifyGranted()) return false;
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = await reg?.pushManager.getSubscription();
  if (!sub) return false;
  send({ type: 'push_subscribe', subscription: sub.toJSON() });
  return true;
}

/**
 * What the opt-in shows, pure: null (nothing: not seated, a live room, or a browser without
 * notifications), 'ask' (the button), 'asking', 'on' (this seat's pushes come to this
 * browser), 'blocked' (permission denied) or 'unsupported' (the subscription failed).
 * `outcome`: enableNotifications' answer to the last click, if any.
 */
export function notifyStatus({ seated, turnBased, available, permission, subscribed, outcome = null, asking = false }) {
  if (!seated || !turnBased || !available) return null;
  if (asking) return 'asking';
  if (outcome === 'unsupported') return 'unsupported';
  if (permission === 'denied' || outcome === 'denied') return 'blocked';
  return subscribed && permission === 'granted' ? 'on' : 'ask';
}

/** Whether this browser could notify at all (the opt-in is offered). */
export const notifyAvailable = () => supported();

let permission; // read once, then kept by the permission's change events

/**
 * The browser's permission now ('default', 'granted', 'denied'), or null. Chromium asks
 * its browser process for `Notification.permission` on every read (about 2 ms), and the
 * room reads it on every redraw: it is read once and followed by its change events.
 */
export function notifyPermission() {
  if (typeof Notification === 'undefined') return null;
  if (permission === undefined) {
    permission = Notification.permission;
    navigator.permissions?.query?.({ name: 'notifications' })
      .then((status) => { status.addEventListener('change', () => { permission = Notification.permission; }); })
      .catch(() => { permission = undefined; }); // no change events here: read it each time
  }
  return permission ?? Notification.permission;
}

/** The opt-in for `status` (notifyStatus): the button, or one line saying where things stand. */
export function notifyControl(status, onEnable) {
  if (!status) return null;
  if (status === 'ask' || status === 'asking') {
    return h('button', {
      type: 'button', class: 'btn small notify-btn', 'data-testid': 'notify-enable', disabled: status === 'asking',
      onclick: onEnable, text: t('notify.enable'),
    });
  }
  const key = { on: 'notify.enabled', blocked: 'notify.denied', unsupported: 'notify.unsupported' }[status];
  return h('p', { class: `notify-status ${status}`, 'data-testid': 'notify-status', 'data-status': status, role: 'status', text: t(key) });
}

/** The turn just became mine: a system notification when the page is hidden. */
export function notifyMyTurn(wasMine, mine) {
  if (!mine || wasMine || !document.hidden || !notifyGranted()) return;
  try {
    const n = new Notification(t('notify.yourTurn'), { body: t('notify.yourTurnBody'), tag: 'carc-turn', icon: '/favicon.svg' });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* some browsers only notify through a service worker: the push covers them */ }
}
