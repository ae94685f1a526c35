// Strings of hints. Merged into i18n.js's dictionaries.

export const en = {
  'hint.button': 'Hint',
  'hint.asking': 'Thinking…',
  'hint.title': 'Show the move the medium computer player would make (H)',
  'hint.ghost': 'Hint: the medium computer player would play here, column {x}, row {y}, turned {deg}°.',
  'lobby.hints': 'Hints: players may ask for the computer’s move',
  'end.hints': 'Hints',
  'err.hints_off': 'Hints are off in this room.',
};

export const ja = {
  'hint.button': 'ヒント',
  'hint.asking': '考え中…',
  'hint.title': '中級コンピューターの手を表示（H）',
  'hint.ghost': 'ヒント：中級コンピューターならここ（列{x}、行{y}、{deg}°回転）に置きます。',
  'lobby.hints': 'ヒント：プレイヤーはコンピューターの手を見られます',
  'end.hints': 'ヒント',
  'err.hints_off': 'この部屋ではヒントはオフです。',
};

export const fr = {
  'hint.button': 'Indice',
  'hint.asking': 'Réflexion…',
  'hint.title': 'Montrer le coup que jouerait l’ordinateur moyen (H)',
  'hint.ghost': 'Indice : l’ordinateur moyen jouerait ici, colonne {x}, ligne {y}, tournée de {deg}°.',
  'lobby.hints': 'Indices : les joueurs peuvent demander le coup de l’ordinateur',
  'end.hints': 'Indices',
  'err.hints_off': 'Les indices sont désactivés dans cette salle.',
};

export const de = {
  'hint.button': 'Tipp',
  'hint.asking': 'Denkt nach…',
  'hint.title': 'Den Zug des mittleren Computerspielers zeigen (H)',
  'hint.ghost': 'Tipp: Der mittlere Computerspieler würde hier legen, Spalte {x}, Zeile {y}, um {deg}° gedreht.',
  'lobby.hints': 'Tipps: Spieler dürfen nach dem Zug des Computers fragen',
  'end.hints': 'Tipps',
  'err.hints_off': 'Tipps sind in diesem Raum ausgeschaltet.',
};

export const es = {
  'hint.button': 'Pista',
  'hint.asking': 'Pensando…',
  'hint.title': 'Mostrar la jugada del jugador informático medio (H)',
  'hint.ghost': 'Pista: el jugador informático medio jugaría aquí, columna {x}, fila {y}, girada {deg}°.',
  'lobby.hints': 'Pistas: los jugadores pueden pedir la jugada del ordenador',
  'end.hints': 'Pistas',
  'err.hints_off': 'Las pistas están desactivadas en esta sala.',
};
