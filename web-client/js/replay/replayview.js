// The replay viewer: a finished game at /replay/<room> (its record from the server) or a
// record file opened from disk. The record is replayed in the browser (replay.js); each
// step is drawn by the room's own board, players panel and log.
// Names are user text: they only reach the page through textContent.

import { t, playerName, joinNames, getLanguage } from '../i18n/i18n.js';
import { knownGames } from '../home/games.js';
import { local } from '../platform/storage.js';
import { h, add, namesSpan, renderPlayers, renderLog, bindLog, renderEnd } from '../room/panels.js';
import { Board } from '../board/board.js';
import { boardBounds, playerBySeat } from '../game/state.js';
import { buildReplay, clampStep, stepForKey, stepEvents, problemText } from './replay.js';
import { expansionReplay, hasExpansions, roomReplay } from './server-replay.js';
import { readRecordFile, acceptDrops } from './recordfile.js';
import { replayPath, roomPath } from '../pages/routes.js';
import { $ } from '../pages/page.js';
import { ReplayReview } from './replayreview.js';

const AUTOPLAY_MS = 900;

/** Splits a translated text around {name}-like params and puts elements there. */
function fill(key, params, nodes) {
  const marks = Object.fromEntries(Object.keys(nodes).map((k) => [k, `\u0000${k}\u0000`]));
  return t(key, { ...params, ...marks }).split('\u0000').filter(Boolean).map((part) => nodes[part] ?? part);
}

function namesOf(state, seats) {
  return namesSpan(seats.map((s) => playerBySeat(state, s)));
}

export class ReplayPage {
  constructor({ catalog, tiles }, { onClose } = {}) {
    this.catalog = catalog;
    this.tiles = tiles;
    this.onClose = onClose ?? (() => {});
    this.replay = null;
    this.source = null; // {kind: 'room', room} | {kind: 'file', name}
    this.step = 0;
    this.timer = null;
    this.urlTimer = null;
    this.board = null;
    this.bound = false;
    // The review of the room shown (docs/analysis.md): its analysis, graph and better moves.
    this.review = new ReplayReview({ go: (k) => this.go(k), page: this });
  }

  get view() {
    return $('view-replay');
  }

  get shown() {
    return !this.view.hidden;
  }

  bind() {
    if (this.bound) return;
    this.bound = true;
    this.board = new Board($('replay-board'), {});
    this.board.setCatalog(this.catalog);
    $('replay-first').addEventListener('click', () => this.go(0));
    $('replay-prev').addEventListener('click', () => this.go(this.step - 1));
    $('replay-next').addEventListener('click', () => this.go(this.step + 1));
    $('replay-last').addEventListener('click', () => this.go(this.replay?.steps ?? 0));
    $('replay-play').addEventListener('click', () => this.toggleAutoplay());
    $('replay-slider').addEventListener('input', (ev) => this.go(Number(ev.target.value)));
    $('replay-zoom-in').addEventListener('click', () => this.board.zoomBy(1.25));
    $('replay-zoom-out').addEventListener('click', () => this.board.zoomBy(0.8));
    $('replay-fit').addEventListener('click', () => this.board.fitNow());
    // The review: the evaluation graph and the label of each move, under the controls.
    const review = h('div', { class: 'replay-review', id: 'replay-review', 'data-testid': 'replay-review', hidden: true });
    $('replay-controls').after(review);
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    acceptDrops(this.view, (file) => this.openFile(file, $('replay-file-error')));
    // As in the room: a log line shows its cells on the board.
    bindLog($('replay-log'), { onHover: (cells) => this.board.hoverCells(cells), onPick: (cells) => this.board.pulseCells(cells) });
  }

  enter() {
    $('view-home').hidden = true;
    this.view.hidden = false;
    document.body.classList.add('in-replay');
    this.bind();
  }

  // -------------------------------------------------------------------------
  // Loading.

  /** /replay/<room>: the record and the players' names from the server. */
  async openRoom(room, move = null) {
    this.enter();
    this.view.dataset.state = 'loading';
    this.showProblem(null);
    let res;
    let info = null;
    try {
      [res, info] = await Promise.all([
        fetch(`/api/rooms/${encodeURIComponent(room)}/record`),
        fetch(`/api/rooms/${encodeURIComponent(room)}`).then((r) => (r.ok ? r.json() : null)).catch(() => null),
      ]);
    } catch {
      this.showProblem(t('replay.loadFailed'), () => this.openRoom(room, move));
      return;
    }
    if (res.status === 404) {
      this.showProblem(t('replay.missing'));
      return;
    }
    let record;
    try {
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      record = await res.json();
    } catch {
      this.showProblem(t('replay.loadFailed'), () => this.openRoom(room, move));
      return;
    }
    if (info?.phase === 'lobby') {
      this.showProblem(t('replay.notStarted'), null, roomPath(room));
      return;
    }
    const players = new Map((Array.isArray(info?.players) ? info.players : []).map((p) => [p.seat, p]));
    const names = (s) => String(players.get(s)?.name ?? '');
    const bots = (s) => (['easy', 'medium', 'hard'].includes(players.get(s)?.bot) ? players.get(s).bot : null);
    // A game with expansions replays from the room's own events (the browser's rules are the base game).
    const exp = hasExpansions(record) ? await roomReplay(record, room, this.tiles) : null;
    // A table its tournament settled at the round's deadline (docs/tournaments.md#rounds) says so.
    const settled = Boolean(record?.result?.settled);
    const problem = exp?.problem ?? this.load(record, { kind: 'room', room, phase: info?.phase ?? null, settled }, move, { prebuilt: exp?.replay, names, bots });
    if (!problem) this.review.load(room);
    if (problem) this.showProblem(problem);
  }

  /**
   * A record file. On success the viewer shows it (and returns null); otherwise the problem
   * is written into `errorEl` and returned, and nothing else changes.
   */
  async openFile(file, errorEl) {
    const read = await readRecordFile(file);
    const exp = !read.error && hasExpansions(read.record)
      ? await expansionReplay(read.record, this.tiles, { names: (s) => t('replay.player', { n: s + 1 }) }) : null;
    const problem = read.error
      ? problemText({ move: null, reason: read.error })
      : exp?.problem ?? this.load(read.record, { kind: 'file', name: String(file.name ?? ''), date: file.lastModified }, null, { prebuilt: exp?.replay });
    if (errorEl) errorEl.textContent = problem ?? '';
    if (!problem) {
      this.enter();
      $('replay-file-error').textContent = '';
    }
    return problem;
  }

  /** Replays `record`; a problem's text, or null once it is shown. */
  load(record, source, move, { names = () => null, bots = () => null, prebuilt = null } = {}) {
    this.bind();
    const replay = prebuilt ?? buildReplay(record, {
      room: source.room ?? null,
      names: (s) => names(s) || t('replay.player', { n: s + 1 }),
      bots,
    });
    if (!replay.ok) return problemText(replay);
    this.stopAutoplay();
    this.review.reset();
    this.replay = replay;
    this.source = source;
    const last = replay.frames[replay.steps];
    const b = boardBounds(last);
    this.bounds = { minX: b.minX - 1, minY: b.minY - 1, maxX: b.maxX + 1, maxY: b.maxY + 1 };
    this.board.fitNow();
    $('replay-slider').max = String(replay.steps);
    this.view.dataset.state = 'ready';
    this.view.dataset.steps = String(replay.steps);
    this.showProblem(null);
    this.renderSource();
    this.go(move === null ? 0 : move, { url: false });
    return null;
  }

  showProblem(text, retry = null, room = null) {
    const box = $('replay-problem');
    box.hidden = !text;
    if (!text) return box.replaceChildren();
    this.view.dataset.state = 'problem';
    box.replaceChildren(h('p', { text }), h('div', { class: 'row' },
      retry ? h('button', { type: 'button', class: 'btn', onclick: retry, text: t('replay.retry') }) : null,
      room ? h('a', { class: 'btn primary', href: room, text: t('replay.backToGame') }) : null,
      h('a', { class: `btn${room ? '' : ' primary'}`, href: '/', text: t('join.home') })));
  }

  // -------------------------------------------------------------------------
  // Stepping.

  go(k, { url = true, keepPlaying = false } = {}) {
    if (!this.replay) return;
    if (!keepPlaying) this.stopAutoplay();
    this.step = clampStep(k, this.replay.steps);
    this.render();
    if (url && this.source?.kind === 'room') {
      // The address names the step shown, so it can be shared; not at every slider tick.
      clearTimeout(this.urlTimer);
      this.urlTimer = setTimeout(() => history.replaceState(null, '', replayPath(this.source.room, this.step)), 250);
    }
  }

  toggleAutoplay() {
    if (this.timer) return this.stopAutoplay();
    if (!this.replay) return;
    if (this.step >= this.replay.steps) this.go(0, { url: false });
    this.timer = setInterval(() => {
      if (this.step >= this.replay.steps) return this.stopAutoplay();
      this.go(this.step + 1, { keepPlaying: true });
    }, AUTOPLAY_MS);
    this.renderControls();
  }

  stopAutoplay() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.replay) this.renderControls();
  }

  onKey(ev) {
    if (!this.shown || !this.replay || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = ev.target?.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return; // the slider steps by itself
    const next = stepForKey(ev.key, this.step, this.replay.steps);
    const marked = ev.key === 'n' || ev.key === 'N' ? 1 : ev.key === 'p' || ev.key === 'P' ? -1 : 0;
    if (marked && this.review.stepMarked(marked)) {
      ev.preventDefault();
    } else if (next !== null) {
      ev.preventDefault();
      this.go(next);
    } else if (ev.key === 'f' || ev.key === 'F') this.board.fitNow();
    else if (ev.key === '+' || ev.key === '=') this.board.zoomBy(1.25);
    else if (ev.key === '-') this.board.zoomBy(0.8);
  }

  relabel() {
    if (!this.replay) return;
    this.renderSource();
    this.render();
  }

  // -------------------------------------------------------------------------
  // Rendering.

  render() {
    const { replay, step } = this;
    const frame = replay.frames[step];
    this.board.render({ state: frame, legalCells: [], draft: this.review.betterMove(frame), bounds: this.bounds });
    this.review.frame(); // a discussed move and its better one, at a size to read
    const svg = $('replay-board');
    svg.dataset.move = String(step);
    svg.dataset.tiles = String(frame.board.length);
    this.view.dataset.move = String(step);
    this.renderControls();
    renderPlayers($('replay-players'), frame, null, this.tiles);
    const log = $('replay-log');
    renderLog(log, frame, this.tiles);
    const current = new Set(stepEvents(replay, step).map((e) => String(e.id)));
    let first = null;
    for (const li of log.querySelectorAll('li[data-id]')) {
      li.classList.remove('current'); // lines drawn for another step stay (renderLog appends)
      if (!current.has(li.dataset.id)) continue;
      li.classList.add('current');
      first ??= li;
    }
    if (first && (first.offsetTop < log.scrollTop || first.offsetTop > log.scrollTop + log.clientHeight - 20)) {
      log.scrollTop = first.offsetTop - log.offsetTop - 8;
    }
    this.review.markLog(log);
    this.renderBanner(frame, [...log.querySelectorAll('li.current')]);
    this.renderTitle(frame);
  }

  /** The page's title: the players and the date of the game (when this browser knows it). */
  renderTitle(frame) {
    const names = (frame.players ?? []).map((p) => playerName(p));
    const when = this.source?.kind === 'file' ? this.source.date : knownGames(local).find((g) => g.room === this.source?.room)?.updated;
    const date = Number.isFinite(when) ? new Intl.DateTimeFormat(getLanguage(), { dateStyle: 'medium' }).format(new Date(when)) : null;
    document.title = date ? t('replay.pageTitle', { names: joinNames(names), date }) : `${joinNames(names)} — ${t('app.title')}`;
  }

  renderControls() {
    const { steps } = this.replay;
    $('replay-first').disabled = this.step === 0;
    $('replay-prev').disabled = this.step === 0;
    $('replay-next').disabled = this.step >= steps;
    $('replay-last').disabled = this.step >= steps;
    $('replay-play').disabled = steps === 0;
    const play = $('replay-play');
    play.classList.toggle('playing', !!this.timer);
    play.title = t(this.timer ? 'replay.pause' : 'replay.play');
    play.setAttribute('aria-label', play.title);
    play.setAttribute('aria-pressed', this.timer ? 'true' : 'false');
    const slider = $('replay-slider');
    slider.value = String(this.step);
    slider.setAttribute('aria-valuetext', t('replay.move', { k: this.step, n: steps }));
    $('replay-count').textContent = t('replay.count', { k: this.step, n: steps });
    this.review.renderStep();
  }

  /**
   * The banner says what the log says: the log's own lines for this step (`lines`, the
   * current ones), copied, so the two never word a move differently.
   */
  renderBanner(frame, lines = []) {
    const banner = $('replay-banner');
    const { replay, step } = this;
    banner.replaceChildren();
    if (step === 0) {
      banner.append(h('span', { class: 'turn-no', text: t('replay.move', { k: 0, n: replay.steps }) }), h('strong', { text: t('replay.start') }));
      return;
    }
    banner.append(h('span', { class: 'turn-no', text: t('replay.move', { k: step, n: replay.steps }) }));
    for (const li of lines) {
      if (li.dataset.line === 'final' || li.dataset.line === 'game_over') continue;
      const line = h('span', { class: 'replay-what-move', 'data-testid': 'replay-line', 'data-id': li.dataset.id });
      line.append(...[...li.cloneNode(true).childNodes]);
      banner.append(line);
    }
    if (replay.auto[step - 1]) banner.append(h('span', { class: 'muted replay-auto', 'data-testid': 'replay-auto', text: t('replay.auto') }));
    if (frame.phase === 'finished' && frame.result) {
      const winners = frame.result.winners ?? [];
      banner.append(h('strong', { class: 'replay-final', text: t('replay.final') }),
        h('span', { class: 'replay-winners', 'data-testid': 'replay-winners' },
          h('span', { class: 'trophy', 'aria-hidden': 'true', text: '★ ' }),
          ...fill(winners.length > 1 ? 'end.winners' : 'end.winner', {}, { names: namesOf(frame, winners) })),
        h('button', { type: 'button', class: 'btn small', 'data-testid': 'replay-show-end', onclick: () => this.showEnd(frame), text: t('end.show') }));
    }
  }

  /** The room's end dialog (winners, points by kind, the score chart) for the replayed game. */
  showEnd(frame) {
    const modal = $('end-modal');
    if (!this.endBound) {
      this.endBound = true;
      $('end-close').addEventListener('click', () => { modal.hidden = true; });
    }
    renderEnd(modal, frame, null);
    const download = $('end-download');
    download.hidden = this.source.kind !== 'room';
    if (this.source.kind === 'room') {
      download.href = `/api/rooms/${encodeURIComponent(this.source.room)}/record`;
      download.setAttribute('download', `carcassonne-${this.source.room}.json`);
    }
    modal.hidden = false;
  }

  renderSource() {
    const { replay, source } = this;
    const what = $('replay-what');
    what.replaceChildren(
      h('strong', { text: source.kind === 'room' ? t('replay.ofRoom', { room: source.room }) : t('replay.ofFile', { name: source.name }) }),
      h('br'),
      h('span', { class: 'muted', text: t('replay.players', { n: replay.players, moves: replay.steps }) }));
    const notices = [];
    if (source.kind === 'room' && source.phase && source.phase !== 'finished') notices.push(t('replay.inProgress'));
    else if (source.settled) notices.push(t('tour.settled.replay'));
    else if (!replay.final) notices.push(t('replay.notFinal'));
    if (replay.mismatch) {
      notices.push(t('replay.mismatch', { stated: replay.mismatch.stated.join(' / '), replayed: replay.mismatch.replayed.join(' / ') }));
    }
    const notice = $('replay-notice');
    notice.hidden = !notices.length;
    notice.textContent = notices.join(' ');
    const links = $('replay-links');
    links.replaceChildren();
    if (source.kind === 'room') {
      add(links,
        h('a', { class: 'btn small', href: roomPath(source.room), 'data-testid': 'replay-to-room', text: t('replay.backToGame') }),
        h('a', {
          class: 'btn small', href: `/api/rooms/${encodeURIComponent(source.room)}/record`, download: `carcassonne-${source.room}.json`,
          'data-testid': 'replay-download', text: t('replay.download'),
        }));
    } else {
      const input = h('input', { type: 'file', class: 'file-input', id: 'replay-file', accept: '.json,application/json', 'data-testid': 'replay-file' });
      input.addEventListener('change', () => {
        if (input.files?.[0]) this.openFile(input.files[0], $('replay-file-error'));
      });
      add(links,
        h('label', { class: 'btn small', for: 'replay-file', text: t('replay.openOther') }), input,
        h('button', { type: 'button', class: 'btn small', 'data-testid': 'replay-close', onclick: () => this.close(), text: t('replay.close') }));
    }
  }

  close() {
    this.stopAutoplay();
    this.view.hidden = true;
    document.body.classList.remove('in-replay');
    this.onClose();
  }
}
