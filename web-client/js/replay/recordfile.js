// Record files from disk: reading one (a File, from the picker or a drop), and making an
// element a drop target for them. The replay viewer and the start page use both.

import { readRecordText } from './replay.js';

/** A File's text as a record, or {error: {code}}. */
export async function readRecordFile(file) {
  if (!file) return { error: { code: 'not_record' } };
  if (file.size > (1 << 20)) return { error: { code: 'too_large' } };
  let text;
  try {
    text = await file.text();
  } catch {
    return { error: { code: 'not_json' } };
  }
  return readRecordText(text);
}

/** Calls onFile(file) for a file dropped on `el` (which shows it is a drop target meanwhile). */
export function acceptDrops(el, onFile) {
  let depth = 0;
  const hasFiles = (ev) => [...(ev.dataTransfer?.types ?? [])].includes('Files');
  el.addEventListener('dragenter', (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    depth++;
    el.classList.add('dropping');
  });
  el.addEventListener('dragover', (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    ev.dataTransfer.dropEffect = 'copy';
  });
  el.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) el.classList.remove('dropping');
  });
  el.addEventListener('drop', (ev) => {
    ev.preventDefault();
    depth = 0;
    el.classList.remove('dropping');
    const file = ev.dataTransfer?.files?.[0];
    if (file) onFile(file);
  });
}
