// The words of Inns & Cathedrals (docs/expansions/inns-cathedrals.md), in every language of
// i18n/i18n.js: the lobby's choice, the big meeple, inns and cathedrals on tiles and on the
// end screen. Merged into the dictionaries through expansions/registry.js.

export const en = {
  // The start page's first step, with the sixth seat this expansion brings.
  'home.how1': 'Create a game, then send the invite link to up to 4 friends (5 with Inns & Cathedrals).',
  'exp.inns': 'Inns & Cathedrals',
  'exp.inns.what': 'Inns double a finished road, cathedrals make cities worth more; a big meeple counts twice; up to 6 players.',
  'figure.big': 'big meeple',
  'spot.big': 'big meeple on the {feature}',
  'spot.bigSized': 'big meeple on the {feature}, {size}',
  'end.inn': 'Inns',
  'end.cathedral': 'Cathedrals',
  'tile.inn': 'an inn',
  'tile.cathedral': 'a cathedral',
};

export const ja = {
  'home.how1': 'ゲームを作って、招待リンクを友だち4人まで（宿屋と大聖堂なら5人まで）に送りましょう。',
  'exp.inns': '宿屋と大聖堂',
  'exp.inns.what': '宿屋は完成した道の得点を倍に、大聖堂は都市の得点を増やします。大きいミープルは2人分。最大6人。',
  'figure.big': '大きいミープル',
  'spot.big': '{feature}に大きいミープル',
  'spot.bigSized': '{feature}に大きいミープル（{size}）',
  'end.inn': '宿屋',
  'end.cathedral': '大聖堂',
  'tile.inn': '宿屋',
  'tile.cathedral': '大聖堂',
};

export const fr = {
  'home.how1': 'Créez une partie, puis envoyez le lien d’invitation à 4 amis au plus (5 avec Auberges et Cathédrales).',
  'exp.inns': 'Auberges et Cathédrales',
  'exp.inns.what': 'Les auberges doublent une route achevée, les cathédrales valorisent les villes ; le grand meeple compte double ; jusqu’à 6 joueurs.',
  'figure.big': 'grand meeple',
  'spot.big': 'grand meeple sur : {feature}',
  'spot.bigSized': 'grand meeple sur : {feature}, {size}',
  'end.inn': 'Auberges',
  'end.cathedral': 'Cathédrales',
  'tile.inn': 'une auberge',
  'tile.cathedral': 'une cathédrale',
};

export const de = {
  'home.how1': 'Erstelle ein Spiel und schicke den Einladungslink an bis zu 4 Freunde (5 mit Wirtshäuser und Kathedralen).',
  'exp.inns': 'Wirtshäuser und Kathedralen',
  'exp.inns.what': 'Wirtshäuser verdoppeln eine fertige Straße, Kathedralen werten Städte auf; der große Gefolgsmann zählt doppelt; bis zu 6 Spieler.',
  'figure.big': 'großer Gefolgsmann',
  'spot.big': 'großer Gefolgsmann: {feature}',
  'spot.bigSized': 'großer Gefolgsmann: {feature}, {size}',
  'end.inn': 'Wirtshäuser',
  'end.cathedral': 'Kathedralen',
  'tile.inn': 'ein Wirtshaus',
  'tile.cathedral': 'eine Kathedrale',
};

export const es = {
  'home.how1': 'Crea una partida y envía el enlace de invitación a hasta 4 amigos (5 con Posadas y Catedrales).',
  'exp.inns': 'Posadas y Catedrales',
  'exp.inns.what': 'Las posadas doblan un camino terminado, las catedrales valorizan las ciudades; el seguidor grande cuenta doble; hasta 6 jugadores.',
  'figure.big': 'seguidor grande',
  'spot.big': 'seguidor grande en: {feature}',
  'spot.bigSized': 'seguidor grande en: {feature}, {size}',
  'end.inn': 'Posadas',
  'end.cathedral': 'Catedrales',
  'tile.inn': 'una posada',
  'tile.cathedral': 'una catedral',
};
