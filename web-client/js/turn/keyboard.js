// Which room action a key press asks for. Pure: `ev` is a plain description of the key
// event, so node can test the mapping.
//   ev: {key, tag (of the focused element), onBody (nothing else has focus), onBoard (the
//        focus is on the board: a cell or the tile being placed), ctrlKey, metaKey, altKey}

export function roomKeyAction(ev, { hasDraft, myTurn }) {
  const tag = ev.tag;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || ev.ctrlKey || ev.metaKey || ev.altKey) return null;
  const k = ev.key;
  // Enter confirms a placement from the page or the board; a focused button, link or
  // list does what it says ("No meeple", "Cancel" ...). A button clicked with the mouse
  // gives the focus back (room.js), so Enter after a click still confirms.
  if (k === 'Enter' && hasDraft && (ev.onBody || ev.onBoard)) return 'confirm';
  if ((k === 'Enter' || k === ' ') && !ev.onBody) return null;
  if (k === 'r' || k === 'R') return 'rotate';
  if ((k === 'm' || k === 'M') && hasDraft) return 'meeple';
  if (k === 'Escape') return 'cancel';
  if (k?.startsWith('Arrow') && myTurn) return 'step';
  if ((k === 'h' || k === 'H') && myTurn) return 'hint';
  if (k === 'f' || k === 'F') return 'fit';
  if (k === '+' || k === '=') return 'zoomIn';
  if (k === '-') return 'zoomOut';
  return null;
}

/** The plain description roomKeyAction reads, from a DOM KeyboardEvent (`board`: the board's element). */
export function describeKey(ev, body, board = null) {
  const target = ev.target;
  return {
    key: ev.key, tag: target?.tagName, onBody: target === body, onBoard: !!board && !!target && board.contains?.(target),
    ctrlKey: ev.ctrlKey, metaKey: ev.metaKey, altKey: ev.altKey,
  };
}
