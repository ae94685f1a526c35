// The words every expansion shares, in every language of i18n.js: the start page's and the
// lobby's choice of expansions, the figure picker, figures in supply and in the log, and the
// replay of a game with expansions. Each expansion's own words are in its folder
// (expansions/<id>/strings.js). Every language has every key (tests/web/i18n.test.mjs).

export const en = {
  'home.expansionsHint': 'Optional: each adds tiles and rules (tick one to read what). Both buttons below use them.',
  'lobby.expansions': 'Expansions',
  'lobby.expansionsNone': 'Base game only',
  'lobby.bagSize': '{n} tiles',
  'figure.inSupply': 'in supply',
  'figure.onBoard': 'on the board',
  'replay.expansions': 'This game used expansions ({expansions}): its record is replayed by the server, which could not be reached.',
  'figure.meeple': 'meeple',
  'picker.label': 'Figure to place',
  'picker.option': { one: '{figure}: {n} place', other: '{figure}: {n} places' },
  'picker.chosen': 'Place your {figure}: choose a spot on the tile',
  'figures.supply': '{figure}: {state}',
  'log.claimFigure': '{name} put their {figure} on a {feature}',
};

export const ja = {
  'home.expansionsHint': '任意：それぞれタイルとルールが加わります（選ぶと説明が出ます）。下のどちらのボタンにも使われます。',
  'lobby.expansions': '拡張',
  'lobby.expansionsNone': '基本ゲームのみ',
  'lobby.bagSize': 'タイル {n} 枚',
  'figure.inSupply': '手元',
  'figure.onBoard': '盤上',
  'replay.expansions': 'このゲームは拡張（{expansions}）を使っています。記録はサーバーが再生しますが、サーバーに接続できませんでした。',
  'figure.meeple': 'ミープル',
  'picker.label': '置くコマ',
  'picker.option': '{figure}: {n}か所',
  'picker.chosen': '{figure}を置きます：タイル上の場所を選んでください',
  'figures.supply': '{figure} – {state}',
  'log.claimFigure': '{name}さんが{feature}に{figure}を置きました',
};

export const fr = {
  'home.expansionsHint': 'Facultatif : chacune ajoute des tuiles et des règles (cochez-en une pour les lire). Les deux boutons ci-dessous en tiennent compte.',
  'lobby.expansions': 'Extensions',
  'lobby.expansionsNone': 'Jeu de base seulement',
  'lobby.bagSize': '{n} tuiles',
  'figure.inSupply': 'en réserve',
  'figure.onBoard': 'sur le plateau',
  'replay.expansions': 'Cette partie utilise des extensions ({expansions}) : son enregistrement est rejoué par le serveur, qui n’a pas pu être joint.',
  'figure.meeple': 'meeple',
  'picker.label': 'Pion à poser',
  'picker.option': { one: '{figure} : {n} place', other: '{figure} : {n} places' },
  'picker.chosen': 'Posez votre {figure} : choisissez une place sur la tuile',
  'figures.supply': '{figure} : {state}',
  'log.claimFigure': '{name} a posé son {figure} sur : {feature}',
};

export const de = {
  'home.expansionsHint': 'Freiwillig: Jede bringt Plättchen und Regeln (hake eine an, um mehr zu lesen). Beide Knöpfe unten nutzen sie.',
  'lobby.expansions': 'Erweiterungen',
  'lobby.expansionsNone': 'Nur das Grundspiel',
  'lobby.bagSize': '{n} Plättchen',
  'figure.inSupply': 'im Vorrat',
  'figure.onBoard': 'auf dem Spielbrett',
  'replay.expansions': 'Dieses Spiel nutzte Erweiterungen ({expansions}): sein Protokoll spielt der Server nach, der nicht erreichbar war.',
  'figure.meeple': 'Gefolgsmann',
  'picker.label': 'Figur zum Setzen',
  'picker.option': { one: '{figure}: {n} Platz', other: '{figure}: {n} Plätze' },
  'picker.chosen': 'Setze deinen {figure}: wähle einen Platz auf dem Plättchen',
  'figures.supply': '{figure} – {state}',
  'log.claimFigure': '{name} setzte seinen {figure}: {feature}',
};

export const es = {
  'home.expansionsHint': 'Opcional: cada una añade losetas y reglas (marca una para leerlas). Los dos botones de abajo las usan.',
  'lobby.expansions': 'Expansiones',
  'lobby.expansionsNone': 'Solo el juego básico',
  'lobby.bagSize': '{n} losetas',
  'figure.inSupply': 'en la reserva',
  'figure.onBoard': 'en el tablero',
  'replay.expansions': 'Esta partida usó expansiones ({expansions}): su registro lo reproduce el servidor, al que no se pudo acceder.',
  'figure.meeple': 'seguidor',
  'picker.label': 'Figura que colocar',
  'picker.option': { one: '{figure}: {n} sitio', other: '{figure}: {n} sitios' },
  'picker.chosen': 'Coloca tu {figure}: elige un sitio en la loseta',
  'figures.supply': '{figure} – {state}',
  'log.claimFigure': '{name} puso su {figure} en: {feature}',
};
