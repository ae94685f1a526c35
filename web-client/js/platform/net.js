// The WebSocket to /ws/<room>, with automatic reconnect and exponential backoff.

// While the page is visible, a player is looking at it: retries stay under 2 s, so the
// page is back within 2 s of the server. In a background tab they back off to 15 s.
export const VISIBLE_CAP_MS = 1800;

/**
 * Backoff delay in ms for the n-th consecutive failed attempt (0-based), with jitter;
 * capped at VISIBLE_CAP_MS when `visible`.
 */
export function backoffDelay(attempt, random = Math.random, visible = false) {
  const base = Math.min(15000, 500 * 2 ** Math.min(attempt, 10));
  const delay = Math.round(base * (0.8 + 0.4 * random()));
  return visible ? Math.min(VISIBLE_CAP_MS, delay) : delay;
}

export function wsUrl(loc, room) {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/ws/${encodeURIComponent(room)}`;
}

/**
 * Connection(url, handlers): handlers.onOpen(conn) is called on every (re)connect, so
 * the caller sends its join/watch again; onMessage(obj) for each frame; onStatus(s)
 * with s = {state: 'connecting'|'open'|'waiting'|'closed', retryAt?}.
 */
export class Connection {
  constructor(url, { onOpen, onMessage, onStatus } = {}) {
    this.url = url;
    this.onOpen = onOpen ?? (() => {});
    this.onMessage = onMessage ?? (() => {});
    this.onStatus = onStatus ?? (() => {});
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.status = { state: 'closed' };
    this.openedAt = 0;
  }

  setStatus(s) {
    this.status = s;
    this.onStatus(s);
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws) {
      this.ws.onclose = null;
      try { this.ws.close(); } catch { /* already closed */ }
    }
    this.setStatus({ state: 'connecting' });
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.openedAt = Date.now();
      this.setStatus({ state: 'open' });
      this.onOpen(this);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      // A connection that delivered a message is healthy: reset the backoff.
      this.attempt = 0;
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) {
        this.setStatus({ state: 'closed' });
        return;
      }
      if (ev.code === 1008) {
        // Policy: the seat was taken back by another connection (another tab or device).
        // Reconnecting on our own would take it back and start a tug of war.
        this.setStatus({ state: 'closed', reason: 'replaced' });
        return;
      }
      // 4302: the room moved to another node of a cluster; reconnecting at once reaches it.
      if (ev.code === 4302) this.attempt = 0;
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleRetry() {
    const delay = backoffDelay(this.attempt++, Math.random, globalThis.document?.visibilityState === 'visible');
    this.setStatus({ state: 'waiting', retryAt: Date.now() + delay });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Reconnect at once (the "retry now" button, or the browser coming back online). */
  retryNow() {
    if (this.stopped) return;
    if (this.status.state === 'waiting' || this.status.state === 'closed') {
      this.attempt = 0;
      this.connect();
    }
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) {
      try { this.ws.close(); } catch { /* ignore */ }
    }
    this.setStatus({ state: 'closed' });
  }
}
