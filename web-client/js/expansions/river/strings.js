// The River's words (docs/expansions/river.md), in every language of i18n/i18n.js: the lobby's
// choice and the water's name. Merged into the dictionaries through expansions/registry.js.

export const en = {
  'exp.river': 'The River',
  'exp.river.what': '12 river tiles are laid first, from the spring to the lake.',
  'feature.river': 'river',
  'tile.river': { one: 'a river', other: '{n} rivers' },
};

export const ja = {
  'exp.river': '川',
  'exp.river.what': '最初に川タイル12枚を水源から湖まで置きます。',
  'feature.river': '川',
  'tile.river': '川{n}',
};

export const fr = {
  'exp.river': 'La Rivière',
  'exp.river.what': '12 tuiles de rivière posées d’abord, de la source au lac.',
  'feature.river': 'rivière',
  'tile.river': { one: 'une rivière', other: '{n} rivières' },
};

export const de = {
  'exp.river': 'Der Fluss',
  'exp.river.what': 'Zuerst werden 12 Flussplättchen gelegt, von der Quelle bis zum See.',
  'feature.river': 'Fluss',
  'tile.river': { one: 'ein Fluss', other: '{n} Flüsse' },
};

export const es = {
  'exp.river': 'El Río',
  'exp.river.what': 'Primero se colocan 12 losetas de río, del manantial al lago.',
  'feature.river': 'río',
  'tile.river': { one: 'un río', other: '{n} ríos' },
};
