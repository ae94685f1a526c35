// The rule options' words in every language of i18n.js (docs/options.md): the lobby's
// heading, and each option's name and one line on what it changes.

export const en = {
  'lobby.options': 'Rule options',
  'lobby.optionsNone': 'Standard rules',
  'opt.no_fields': 'No fields',
  'opt.no_fields.what': 'No farmers: no figure may stand on a field, and fields never score.',
  'opt.small_city': 'Small city',
  'opt.small_city.what': 'A city of two tiles completed during the game scores 2 points.',
};

export const ja = {
  'lobby.options': 'ルールオプション',
  'lobby.optionsNone': '標準ルール',
  'opt.no_fields': '草原なし',
  'opt.no_fields.what': '農夫なし：草原にはどのコマも置けず、草原は得点になりません。',
  'opt.small_city': '小さな都市',
  'opt.small_city.what': 'ゲーム中に完成した2タイルの都市は2点です。',
};

export const fr = {
  'lobby.options': 'Options de règles',
  'lobby.optionsNone': 'Règles standard',
  'opt.no_fields': 'Sans prés',
  'opt.no_fields.what': 'Pas de paysans : aucune figurine ne se pose sur un pré, et les prés ne rapportent rien.',
  'opt.small_city': 'Petite ville',
  'opt.small_city.what': 'Une ville de deux tuiles achevée en cours de partie rapporte 2 points.',
};

export const de = {
  'lobby.options': 'Regeloptionen',
  'lobby.optionsNone': 'Normale Regeln',
  'opt.no_fields': 'Ohne Wiesen',
  'opt.no_fields.what': 'Keine Bauern: keine Figur darf auf eine Wiese, und Wiesen werden nie gewertet.',
  'opt.small_city': 'Kleine Stadt',
  'opt.small_city.what': 'Eine im Spiel fertige Stadt aus zwei Karten zählt 2 Punkte.',
};

export const es = {
  'lobby.options': 'Opciones de reglas',
  'lobby.optionsNone': 'Reglas normales',
  'opt.no_fields': 'Sin campos',
  'opt.no_fields.what': 'Sin granjeros: ninguna figura puede ir en un campo, y los campos no puntúan.',
  'opt.small_city': 'Ciudad pequeña',
  'opt.small_city.what': 'Una ciudad de dos losetas completada durante la partida vale 2 puntos.',
};
