// Strings of hints. Merged into i18n.js's dictionaries.

export const en = {
  'hint.button': 'Hint',
  'hint.asking': 'Thinking…',
  'hint.title': 'Show the move the medium computer player would make (H)',
  'hint.ghost': 'Hint: the medium computer player would play here, column {x}, row {y}, turned {deg}°.',
  'hint.why': 'Hint: {reason}. Click or tap the tile to play it there.',
  'why.completes': 'completes a {feature}: +{n} for you',
  'why.grows': 'makes your {feature} bigger ({n} tiles)',
  'why.gift': 'completes a {feature} for {name} (+{n})',
  'why.quiet': 'No points at once: the computer player finds it best for the rest of the game',
  'lobby.hints': 'Hints: players may ask for the computer’s move',
  'end.hints': 'Hints',
  'err.hints_off': 'Hints are off in this room.',
};

export const ja = {
  'hint.button': 'ヒント',
  'hint.asking': '考え中…',
  'hint.title': '中級コンピューターの手を表示（H）',
  'hint.ghost': 'ヒント：中級コンピューターならここ（列{x}、行{y}、{deg}°回転）に置きます。',
  'hint.why': 'ヒント：{reason}。タイルをクリック（タップ）するとそこに置きます。',
  'why.completes': '{feature}を完成：あなたに+{n}点',
  'why.grows': 'あなたの{feature}が大きくなる（{n}枚）',
  'why.gift': '{name}の{feature}を完成（+{n}点）',
  'why.quiet': 'すぐの得点はなし：コンピューターはこの先を見てこれが最善と判断',
  'lobby.hints': 'ヒント：プレイヤーはコンピューターの手を見られます',
  'end.hints': 'ヒント',
  'err.hints_off': 'この部屋ではヒントはオフです。',
};

export const fr = {
  'hint.button': 'Indice',
  'hint.asking': 'Réflexion…',
  'hint.title': 'Montrer le coup que jouerait l’ordinateur moyen (H)',
  'hint.ghost': 'Indice : l’ordinateur moyen jouerait ici, colonne {x}, ligne {y}, tournée de {deg}°.',
  'hint.why': 'Indice : {reason}. Cliquez ou touchez la tuile pour la jouer là.',
  'why.completes': 'termine : {feature}, +{n} pour vous',
  'why.grows': 'agrandit votre {feature} ({n} tuiles)',
  'why.gift': 'termine : {feature} de {name} (+{n})',
  'why.quiet': 'Pas de points tout de suite : l’ordinateur la juge la meilleure pour la suite',
  'lobby.hints': 'Indices : les joueurs peuvent demander le coup de l’ordinateur',
  'end.hints': 'Indices',
  'err.hints_off': 'Les indices sont désactivés dans cette salle.',
};

export const de = {
  'hint.button': 'Tipp',
  'hint.asking': 'Denkt nach…',
  'hint.title': 'Den Zug des mittleren Computerspielers zeigen (H)',
  'hint.ghost': 'Tipp: Der mittlere Computerspieler würde hier legen, Spalte {x}, Zeile {y}, um {deg}° gedreht.',
  'hint.why': 'Tipp: {reason}. Klicke oder tippe auf das Plättchen, um es dort zu legen.',
  'why.completes': 'schließt ab: {feature}, +{n} für dich',
  'why.grows': 'vergrößert dein Gebiet: {feature} ({n} Plättchen)',
  'why.gift': 'schließt ab: {feature} von {name} (+{n})',
  'why.quiet': 'Keine Punkte sofort: Der Computerspieler hält es für das Beste für den weiteren Verlauf',
  'lobby.hints': 'Tipps: Spieler dürfen nach dem Zug des Computers fragen',
  'end.hints': 'Tipps',
  'err.hints_off': 'Tipps sind in diesem Raum ausgeschaltet.',
};

export const es = {
  'hint.button': 'Pista',
  'hint.asking': 'Pensando…',
  'hint.title': 'Mostrar la jugada del jugador informático medio (H)',
  'hint.ghost': 'Pista: el jugador informático medio jugaría aquí, columna {x}, fila {y}, girada {deg}°.',
  'hint.why': 'Pista: {reason}. Haz clic o toca la loseta para jugarla ahí.',
  'why.completes': 'completa: {feature}, +{n} para ti',
  'why.grows': 'hace más grande tu zona: {feature} ({n} losetas)',
  'why.gift': 'completa: {feature} de {name} (+{n})',
  'why.quiet': 'Sin puntos ahora: el jugador informático la ve como la mejor para el resto de la partida',
  'lobby.hints': 'Pistas: los jugadores pueden pedir la jugada del ordenador',
  'end.hints': 'Pistas',
  'err.hints_off': 'Las pistas están desactivadas en esta sala.',
};
