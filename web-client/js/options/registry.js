// The rule options the server plays (docs/options.md), in the order of its list: the one
// place in the web client that names them. Their words are in strings.js beside this file.

const OPTION_IDS = ['no_fields', 'small_city'];

/** Every option id, in the server's order (the order settings.options is written in). */
export function optionIds() {
  return OPTION_IDS.slice();
}

/** The room's options from its public state (known ids only, in order). */
export function optionsOf(state) {
  const on = [].concat(state?.settings?.options ?? []);
  return OPTION_IDS.filter((id) => on.includes(id));
}

/** The settings message that turns option `id` on or off, keeping the others. */
export function optionToggleMessage(current, id, on) {
  if (!OPTION_IDS.includes(id)) return null;
  return { type: 'settings', options: OPTION_IDS.filter((o) => (o === id ? on : current.includes(o))) };
}
