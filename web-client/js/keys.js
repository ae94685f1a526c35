// Which room action a key press asks for. Pure: `ev` is a plain description of the key
// event, so node can test the mapping.
//   ev: {key, tag (of the focused element), onBody (nothing else has focus), ctrlKey, metaKey, altKey}

export function roomKeyAction(ev, { hasDraft, myTurn }) {
  const tag = ev.tag;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || ev.ctrlKey || ev.metaKey || ev.altKey) return null;
  const k = ev.key;
  // Enter confirms a placement whatever has the focus (a Rotate button clicked with the
  // mouse keeps it); without one, Enter and Space are the focused element's own keys.
  if (k === 'Enter' && hasDraft) return 'confirm';
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

/** The plain description roomKeyAction reads, from a DOM KeyboardEvent. */
export function describeKey(ev, body) {
  return {
    key: ev.key, tag: ev.target?.tagName, onBody: ev.target === body,
    ctrlKey: ev.ctrlKey, metaKey: ev.metaKey, altKey: ev.altKey,
  };
}
