// Being told it is your turn (docs/turn-based.md). In the page: a system notification when the
// turn comes while the tab is hidden (the title and the sound already tell). With the page
// closed: Web Push through the service worker (sw.js). Permission is asked on a click only,
// never on load.

import { t } from './i18n.js';

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
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
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

/** Sends this seat's existing subscription again (a new seat, or after a reconnect). */
export async function resubscribe(send) {
  if (!supported() || !notifyGranted()) return;
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = await reg?.pushManager.getSubscription();
  if (sub) send({ type: 'push_subscribe', subscription: sub.toJSON() });
}

/** The turn just became mine: a system notification when the page is hidden. */
export function notifyMyTurn(wasMine, mine) {
  if (!mine || wasMine || !document.hidden || !notifyGranted()) return;
  try {
    const n = new Notification(t('notify.yourTurn'), { body: t('notify.yourTurnBody'), tag: 'carc-turn', icon: '/favicon.svg' });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* some browsers only notify through a service worker: the push covers them */ }
}
