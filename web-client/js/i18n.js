// English, Japanese, French, German and Spanish strings. t(key, params) fills {name} placeholders; the
// result is always put into the page as text, never as HTML.

import * as play from './strings/play.js';
import { de } from './strings/de.js';
import { es } from './strings/es.js';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'ja', label: '日本語' },
  { code: 'fr', label: 'Français' },
  { code: 'de', label: 'Deutsch' },
  { code: 'es', label: 'Español' },
];

const en = {
  'app.title': 'Carcassonne',
  'app.tagline': 'Build the medieval landscape with friends, right in your browser.',
  'home.name': 'Your name',
  'home.namePlaceholder': 'e.g. Alice',
  'home.create': 'Create a game',
  'home.creating': 'Creating…',
  'home.how1': 'Create a game, then send the invite link to 1 to 4 friends.',
  'home.how2': 'Place a tile each turn, claim roads, cities, monasteries and fields with your meeples.',
  'home.how3': 'Anyone with the link can watch.',
  'home.createFailed': 'Could not create the game. Is the server running?',
  'join.title': 'Join this game',
  'join.lobby': 'Players waiting: {n}/5',
  'join.started': 'The game has already started: you will watch as a spectator.',
  'join.finished': 'This game is over: you can look at the final board.',
  'join.full': 'All 5 seats are taken: you will watch as a spectator.',
  'join.join': 'Join',
  'join.watch': 'Just watch',
  'join.unknownRoom': 'This game does not exist (or the link is incomplete).',
  'join.home': 'Back to the start page',
  'join.badToken': 'Your saved seat is no longer valid. Enter your name to join again.',
  'conn.connecting': 'Connecting…',
  'conn.open': 'Connected',
  'conn.waiting': 'Connection lost. Retrying in {s} s…',
  'conn.closed': 'Offline',
  'conn.retry': 'Retry now',
  'conn.replaced': 'Your seat is open in another tab or device.',
  'conn.takeBack': 'Play here',
  'lobby.title': 'Waiting for players',
  'lobby.invite': 'Invite link: send it to your friends',
  'lobby.copy': 'Copy',
  'lobby.copied': 'Copied!',
  'lobby.share': 'Share',
  'lobby.start': 'Start the game',
  'lobby.needPlayers': 'At least 2 players are needed to start.',
  'lobby.waitHost': 'Waiting for {name} to start the game…',
  'lobby.seats': 'Players ({n}/5)',
  'lobby.emptySeat': 'Free seat',
  'spectators': 'Spectators: {n}',
  'you': 'you',
  'host': 'host',
  'online': 'online',
  'offline': 'offline',
  'players': 'Players',
  'score': 'Score',
  'meeplesLeft': { one: '{n} meeple left', other: '{n} meeples left' },
  'holds': 'Next tile',
  'bag.title': 'Bag',
  'bag.left': { one: '{n} tile left', other: '{n} tiles left' },
  'bag.remaining': 'Remaining tiles',
  'log.title': 'Game log',
  'chat.title': 'Chat',
  'chat.placeholder': 'Say something…',
  'chat.send': 'Send',
  'chat.spectator': 'spectator',
  'turn.yours': 'Your turn: place your tile',
  'turn.yoursPicked': 'Your turn: meeple or not, then confirm',
  'turn.other': '{name} is playing…',
  'turn.number': 'Turn {n}',
  'turn.titleCue': '▶ Your turn! — Carcassonne',
  'turn.spectating': 'You are watching this game.',
  'action.rotate': 'Rotate',
  'action.noMeeple': 'No meeple',
  'action.confirm': 'Confirm',
  'action.cancel': 'Cancel',
  'action.currentTile': 'Tile to place',
  'action.beingPlaced': 'Being placed',
  'action.othersTurn': '{name} is placing this tile.',
  'action.pickCell': 'Click a highlighted square.',
  'action.meepleChosen': 'Meeple on the {feature}',
  'action.noMeepleChosen': 'Choose a meeple spot, or confirm without one',
  'action.noMeeplesLeft': 'No meeple left',
  'board.fit': 'Fit the board',
  'board.zoomIn': 'Zoom in',
  'board.zoomOut': 'Zoom out',
  'feature.road': 'road',
  'feature.city': 'city',
  'feature.monastery': 'monastery',
  'feature.field': 'field',
  'ev.started': 'The game has started.',
  'ev.placed': '{name} placed a tile at ({x}, {y})',
  'ev.placedMeeple': '{name} placed a tile at ({x}, {y}) with a meeple on the {feature}',
  'ev.discarded': '{name} discarded a {tile} tile: it fits nowhere.',
  'ev.scored': '{names} +{points}: {feature}',
  'ev.scoredEnd': 'Final scoring — {names} +{points}: {feature}',
  'ev.scoredNobody': '{feature} completed (no meeple on it)',
  'ev.detailTiles': { one: '{n} tile', other: '{n} tiles' },
  'ev.detailTiles1': '1 tile',
  'ev.detailPennants': { one: '{n} coat of arms', other: '{n} coats of arms' },
  'ev.detailPennants1': '1 coat of arms',
  'ev.detailCities': { one: '{n} completed city', other: '{n} completed cities' },
  'ev.detailCities1': '1 completed city',
  'ev.gameOver': 'Game over!',
  'ev.joined': '{name} joined',
  'end.title': 'Game over',
  'end.winner': '{names} wins!',
  'end.winners': '{names} share the victory!',
  'end.player': 'Player',
  'end.during': 'During the game',
  'end.final': 'Final scoring',
  'end.total': 'Total',
  'end.roads': 'Roads',
  'end.cities': 'Cities',
  'end.monasteries': 'Monasteries',
  'end.fields': 'Farms',
  'end.download': 'Download the game record',
  'end.close': 'Look at the board',
  'end.newGame': 'New game',
  'end.show': 'Final scores',
  'lang': 'Language',
  'sound.on': 'Sounds on: your turn, placements, points, the clock (click to mute)',
  'sound.off': 'Sound off (click to turn on)',
  'err.bad_json': 'The server could not read a message.',
  'err.bad_message': 'That request was not valid (check the name or message length).',
  'err.too_large': 'That message is too long.',
  'err.rate_limited': 'Slow down a little: too many requests.',
  'err.not_joined': 'You have not joined this game.',
  'err.bad_token': 'Your saved seat is no longer valid.',
  'err.not_host': 'Only the host can do that.',
  'err.not_enough_players': 'At least 2 players are needed to start.',
  'err.not_started': 'The game has not started yet.',
  'err.game_over': 'The game is over.',
  'err.not_your_turn': 'It is not your turn.',
  'err.stale_version': 'The board changed in the meantime: try again.',
  'err.illegal_placement': 'The tile cannot go there.',
  'err.illegal_meeple': 'A meeple cannot go there.',
  'err.unavailable': 'The server cannot save right now. Try again shortly.',
  'err.unknown': 'The server refused: {message}',
};

const ja = {
  'app.title': 'カルカソンヌ',
  'app.tagline': '友だちと中世の風景を作ろう。ブラウザですぐ遊べます。',
  'home.name': 'あなたの名前',
  'home.namePlaceholder': '例: さくら',
  'home.create': 'ゲームを作成',
  'home.creating': '作成中…',
  'home.how1': 'ゲームを作って、招待リンクを1〜4人の友だちに送りましょう。',
  'home.how2': '毎ターンタイルを置き、ミープルで道・都市・修道院・草原を確保します。',
  'home.how3': 'リンクを知っている人は誰でも観戦できます。',
  'home.createFailed': 'ゲームを作成できませんでした。サーバーは動いていますか？',
  'join.title': 'このゲームに参加',
  'join.lobby': '待機中のプレイヤー: {n}/5',
  'join.started': 'ゲームはすでに始まっています。観戦者として参加します。',
  'join.finished': 'このゲームは終了しています。最終盤面を見られます。',
  'join.full': '5席すべて埋まっています。観戦者として参加します。',
  'join.join': '参加する',
  'join.watch': '観戦だけする',
  'join.unknownRoom': 'このゲームは存在しません（またはリンクが不完全です）。',
  'join.home': 'トップページへ',
  'join.badToken': '保存された席は無効になりました。名前を入力して参加し直してください。',
  'conn.connecting': '接続中…',
  'conn.open': '接続済み',
  'conn.waiting': '接続が切れました。{s}秒後に再接続…',
  'conn.closed': 'オフライン',
  'conn.retry': '今すぐ再接続',
  'conn.replaced': 'この席は別のタブか端末で開かれています。',
  'conn.takeBack': 'ここでプレイ',
  'lobby.title': 'プレイヤーを待っています',
  'lobby.invite': '招待リンク（友だちに送ってください）',
  'lobby.copy': 'コピー',
  'lobby.copied': 'コピーしました！',
  'lobby.share': '共有',
  'lobby.start': 'ゲーム開始',
  'lobby.needPlayers': '開始には2人以上必要です。',
  'lobby.waitHost': '{name}さんが開始するのを待っています…',
  'lobby.seats': 'プレイヤー ({n}/5)',
  'lobby.emptySeat': '空席',
  'spectators': '観戦者: {n}',
  'you': 'あなた',
  'host': 'ホスト',
  'online': 'オンライン',
  'offline': 'オフライン',
  'players': 'プレイヤー',
  'score': '得点',
  'meeplesLeft': '残りミープル {n}',
  'holds': '次のタイル',
  'bag.title': '袋',
  'bag.left': '残り{n}枚',
  'bag.remaining': '残りのタイル',
  'log.title': 'ログ',
  'chat.title': 'チャット',
  'chat.placeholder': 'メッセージ…',
  'chat.send': '送信',
  'chat.spectator': '観戦者',
  'turn.yours': 'あなたの番: タイルを置いてください',
  'turn.yoursPicked': 'あなたの番: ミープルを選んで（なしも可）確定',
  'turn.other': '{name}さんの番です…',
  'turn.number': 'ターン {n}',
  'turn.titleCue': '▶ あなたの番！ — カルカソンヌ',
  'turn.spectating': '観戦中です。',
  'action.rotate': '回転',
  'action.noMeeple': 'ミープルなし',
  'action.confirm': '確定',
  'action.cancel': '取り消し',
  'action.currentTile': '置くタイル',
  'action.beingPlaced': '配置中',
  'action.othersTurn': '{name}さんがこのタイルを置いています。',
  'action.pickCell': '光っているマスをクリックしてください。',
  'action.meepleChosen': 'ミープル: {feature}',
  'action.noMeepleChosen': 'ミープルの場所を選ぶか、そのまま確定してください',
  'action.noMeeplesLeft': 'ミープルが残っていません',
  'board.fit': '盤面全体を表示',
  'board.zoomIn': '拡大',
  'board.zoomOut': '縮小',
  'feature.road': '道',
  'feature.city': '都市',
  'feature.monastery': '修道院',
  'feature.field': '草原',
  'ev.started': 'ゲームが始まりました。',
  'ev.placed': '{name}さんが ({x}, {y}) にタイルを置きました',
  'ev.placedMeeple': '{name}さんが ({x}, {y}) にタイルを置き、{feature}にミープルを置きました',
  'ev.discarded': '{name}さんの{tile}タイルは置ける場所がないため捨てられました。',
  'ev.scored': '{names} +{points}: {feature}',
  'ev.scoredEnd': '最終得点 — {names} +{points}: {feature}',
  'ev.scoredNobody': '{feature}が完成（ミープルなし）',
  'ev.detailTiles': '{n}枚',
  'ev.detailTiles1': '1枚',
  'ev.detailPennants1': '紋章1個',
  'ev.detailCities1': '完成都市1個',
  'ev.detailPennants': '紋章{n}個',
  'ev.detailCities': '完成都市{n}個',
  'ev.gameOver': 'ゲーム終了！',
  'ev.joined': '{name}さんが参加しました',
  'end.title': 'ゲーム終了',
  'end.winner': '{names}さんの勝ち！',
  'end.winners': '{names}さんが同点優勝！',
  'end.player': 'プレイヤー',
  'end.during': 'ゲーム中',
  'end.final': '最終得点',
  'end.total': '合計',
  'end.roads': '道',
  'end.cities': '都市',
  'end.monasteries': '修道院',
  'end.fields': '草原',
  'end.download': '棋譜をダウンロード',
  'end.close': '盤面を見る',
  'end.newGame': '新しいゲーム',
  'end.show': '最終得点',
  'lang': '言語',
  'sound.on': '音あり: 自分の番・配置・得点・時計（クリックで消音）',
  'sound.off': '音なし（クリックで有効）',
  'err.bad_json': 'サーバーがメッセージを読めませんでした。',
  'err.bad_message': '無効なリクエストです（名前やメッセージの長さを確認してください）。',
  'err.too_large': 'メッセージが長すぎます。',
  'err.rate_limited': 'リクエストが多すぎます。少し待ってください。',
  'err.not_joined': 'このゲームに参加していません。',
  'err.bad_token': '保存された席は無効になりました。',
  'err.not_host': 'ホストだけが操作できます。',
  'err.not_enough_players': '開始には2人以上必要です。',
  'err.not_started': 'ゲームはまだ始まっていません。',
  'err.game_over': 'ゲームは終了しています。',
  'err.not_your_turn': 'あなたの番ではありません。',
  'err.stale_version': '盤面が変わりました。もう一度どうぞ。',
  'err.illegal_placement': 'そこにはタイルを置けません。',
  'err.illegal_meeple': 'そこにはミープルを置けません。',
  'err.unavailable': 'サーバーが保存できません。少し後でもう一度どうぞ。',
  'err.unknown': 'サーバーが拒否しました: {message}',
};

const fr = {
  'app.title': 'Carcassonne',
  'app.tagline': 'Bâtissez le paysage médiéval entre amis, directement dans le navigateur.',
  'home.name': 'Votre nom',
  'home.namePlaceholder': 'ex. Alice',
  'home.create': 'Créer une partie',
  'home.creating': 'Création…',
  'home.how1': 'Créez une partie, puis envoyez le lien d’invitation à 1 à 4 amis.',
  'home.how2': 'Posez une tuile à chaque tour et placez vos meeples sur routes, villes, abbayes et prés.',
  'home.how3': 'Toute personne ayant le lien peut regarder.',
  'home.createFailed': 'Impossible de créer la partie. Le serveur est-il lancé ?',
  'join.title': 'Rejoindre cette partie',
  'join.lobby': 'Joueurs en attente : {n}/5',
  'join.started': 'La partie a déjà commencé : vous serez spectateur.',
  'join.finished': 'Cette partie est terminée : vous pouvez voir le plateau final.',
  'join.full': 'Les 5 places sont prises : vous serez spectateur.',
  'join.join': 'Rejoindre',
  'join.watch': 'Regarder seulement',
  'join.unknownRoom': 'Cette partie n’existe pas (ou le lien est incomplet).',
  'join.home': 'Retour à l’accueil',
  'join.badToken': 'Votre place enregistrée n’est plus valable. Entrez votre nom pour rejoindre.',
  'conn.connecting': 'Connexion…',
  'conn.open': 'Connecté',
  'conn.waiting': 'Connexion perdue. Nouvel essai dans {s} s…',
  'conn.closed': 'Hors ligne',
  'conn.retry': 'Réessayer',
  'conn.replaced': 'Votre place est ouverte dans un autre onglet ou appareil.',
  'conn.takeBack': 'Jouer ici',
  'lobby.title': 'En attente des joueurs',
  'lobby.invite': 'Lien d’invitation : envoyez-le à vos amis',
  'lobby.copy': 'Copier',
  'lobby.copied': 'Copié !',
  'lobby.share': 'Partager',
  'lobby.start': 'Lancer la partie',
  'lobby.needPlayers': 'Il faut au moins 2 joueurs pour commencer.',
  'lobby.waitHost': 'En attente que {name} lance la partie…',
  'lobby.seats': 'Joueurs ({n}/5)',
  'lobby.emptySeat': 'Place libre',
  'spectators': 'Spectateurs : {n}',
  'you': 'vous',
  'host': 'hôte',
  'online': 'en ligne',
  'offline': 'hors ligne',
  'players': 'Joueurs',
  'score': 'Score',
  'meeplesLeft': { one: '{n} meeple restant', other: '{n} meeples restants' },
  'holds': 'Tuile suivante',
  'bag.title': 'Sac',
  'bag.left': { one: '{n} tuile restante', other: '{n} tuiles restantes' },
  'bag.remaining': 'Tuiles restantes',
  'log.title': 'Journal',
  'chat.title': 'Discussion',
  'chat.placeholder': 'Écrire un message…',
  'chat.send': 'Envoyer',
  'chat.spectator': 'spectateur',
  'turn.yours': 'À vous : posez votre tuile',
  'turn.yoursPicked': 'À vous : meeple ou non, puis validez',
  'turn.other': '{name} joue…',
  'turn.number': 'Tour {n}',
  'turn.titleCue': '▶ À vous ! — Carcassonne',
  'turn.spectating': 'Vous regardez cette partie.',
  'action.rotate': 'Tourner',
  'action.noMeeple': 'Sans meeple',
  'action.confirm': 'Valider',
  'action.cancel': 'Annuler',
  'action.currentTile': 'Tuile à poser',
  'action.beingPlaced': 'En cours',
  'action.othersTurn': '{name} pose cette tuile.',
  'action.pickCell': 'Cliquez sur une case en surbrillance.',
  'action.meepleChosen': 'Meeple : {feature}',
  'action.noMeepleChosen': 'Choisissez un emplacement de meeple, ou validez sans',
  'action.noMeeplesLeft': 'Plus de meeple',
  'board.fit': 'Voir tout le plateau',
  'board.zoomIn': 'Zoom avant',
  'board.zoomOut': 'Zoom arrière',
  'feature.road': 'route',
  'feature.city': 'ville',
  'feature.monastery': 'abbaye',
  'feature.field': 'pré',
  'ev.started': 'La partie a commencé.',
  'ev.placed': '{name} a posé une tuile en ({x}, {y})',
  'ev.placedMeeple': '{name} a posé une tuile en ({x}, {y}) et un meeple ({feature})',
  'ev.discarded': '{name} défausse une tuile {tile} : elle ne va nulle part.',
  'ev.scored': '{names} +{points} : {feature}',
  'ev.scoredEnd': 'Décompte final — {names} +{points} : {feature}',
  'ev.scoredNobody': '{feature} terminée (sans meeple)',
  'ev.detailTiles': { one: '{n} tuile', other: '{n} tuiles' },
  'ev.detailTiles1': '1 tuile',
  'ev.detailPennants': { one: '{n} blason', other: '{n} blasons' },
  'ev.detailPennants1': '1 blason',
  'ev.detailCities': { one: '{n} ville terminée', other: '{n} villes terminées' },
  'ev.detailCities1': '1 ville terminée',
  'ev.gameOver': 'Partie terminée !',
  'ev.joined': '{name} a rejoint la partie',
  'end.title': 'Partie terminée',
  'end.winner': '{names} gagne !',
  'end.winners': '{names} se partagent la victoire !',
  'end.player': 'Joueur',
  'end.during': 'Pendant la partie',
  'end.final': 'Décompte final',
  'end.total': 'Total',
  'end.roads': 'Routes',
  'end.cities': 'Villes',
  'end.monasteries': 'Abbayes',
  'end.fields': 'Prés',
  'end.download': 'Télécharger la partie',
  'end.close': 'Voir le plateau',
  'end.newGame': 'Nouvelle partie',
  'end.show': 'Scores finaux',
  'lang': 'Langue',
  'sound.on': 'Sons : votre tour, les poses, les points, l’horloge (cliquer pour couper)',
  'sound.off': 'Son coupé (cliquer pour activer)',
  'err.bad_json': 'Le serveur n’a pas pu lire un message.',
  'err.bad_message': 'Requête invalide (vérifiez le nom ou la longueur du message).',
  'err.too_large': 'Ce message est trop long.',
  'err.rate_limited': 'Doucement : trop de requêtes.',
  'err.not_joined': 'Vous n’avez pas rejoint cette partie.',
  'err.bad_token': 'Votre place enregistrée n’est plus valable.',
  'err.not_host': 'Seul l’hôte peut faire cela.',
  'err.not_enough_players': 'Il faut au moins 2 joueurs pour commencer.',
  'err.not_started': 'La partie n’a pas encore commencé.',
  'err.game_over': 'La partie est terminée.',
  'err.not_your_turn': 'Ce n’est pas votre tour.',
  'err.stale_version': 'Le plateau a changé entre-temps : réessayez.',
  'err.illegal_placement': 'La tuile ne peut pas aller là.',
  'err.illegal_meeple': 'Un meeple ne peut pas aller là.',
  'err.unavailable': 'Le serveur ne peut pas enregistrer pour le moment. Réessayez bientôt.',
  'err.unknown': 'Le serveur a refusé : {message}',
};

Object.assign(en, play.en);
Object.assign(ja, play.ja);
Object.assign(fr, play.fr);

export const DICTS = { en, ja, fr, de, es };

export function pickLanguage(saved, navigatorLanguages = []) {
  if (saved && DICTS[saved]) return saved;
  for (const l of navigatorLanguages) {
    const code = String(l).toLowerCase().slice(0, 2);
    if (DICTS[code]) return code;
  }
  return 'en';
}

let current = 'en';

export function setLanguage(code) {
  current = DICTS[code] ? code : 'en';
  return current;
}

export function getLanguage() {
  return current;
}

const pluralRules = new Map();
/** The plural category of n in a language ('one', 'few', 'other'...), by Intl.PluralRules. */
export function pluralOf(n, lang = current) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang).select(Number(n));
}

/**
 * A text with its {name} placeholders filled. A text that depends on a number is an object
 * of plural forms ({one, other}, and whatever else the language has), chosen by params.n.
 */
/** Whether the language has its own text for `key` (a more precise wording to prefer). */
export function hasText(key, lang = current) {
  return DICTS[lang]?.[key] !== undefined;
}

export function t(key, params = {}, lang = current) {
  let s = DICTS[lang]?.[key] ?? en[key] ?? key;
  if (typeof s === 'object') {
    const dict = DICTS[lang]?.[key] ? lang : 'en';
    s = s[pluralOf(params.n ?? 0, dict)] ?? s.other;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

// English lists without the serial comma ("A, B and C"), as the rest of the page writes.
const LIST_LOCALE = { en: 'en-GB' };
const listFormats = new Map();
function listFormat(lang) {
  if (!listFormats.has(lang)) listFormats.set(lang, new Intl.ListFormat(LIST_LOCALE[lang] ?? lang, { type: 'conjunction' }));
  return listFormats.get(lang);
}

/** Joins names the way the language does ("A, B and C", "A、B、C"), by Intl.ListFormat. */
export function joinNames(names, lang = current) {
  return listFormat(lang).format(names.map(String));
}

/**
 * A list of n items as parts: numbers (the index of an item) and the words between them,
 * so that elements (name spans) can be joined the way the language does.
 */
export function listParts(n, lang = current) {
  const marks = Array.from({ length: n }, (_, i) => `\u0001${i}\u0001`);
  const out = [];
  for (const part of listFormat(lang).format(marks).split('\u0001')) {
    if (/^\d+$/.test(part)) out.push(Number(part));
    else if (part) out.push(part);
  }
  return out;
}

/**
 * The name shown for a player: the server names a computer player "Bot <seat+1> (<level>)"
 * (docs/protocol-details.md), which is said in the page's language, without the level
 * (the bot badge beside the name says it); any other name as it is.
 */
export function playerName(p, lang = current) {
  const name = String(p?.name ?? '');
  const m = p?.bot ? /^Bot (\d+) \((easy|medium|hard)\)$/.exec(name) : null;
  return m ? t('bot.name', { n: m[1] }, lang) : name;
}

/** The message shown for a server error. */
export function errorText(err, lang = current) {
  const key = `err.${err?.code}`;
  if (DICTS[lang]?.[key] || en[key]) return t(key, {}, lang);
  return t('err.unknown', { message: err?.message ?? err?.code ?? '?' }, lang);
}

// The replay viewer's, "your games"' and the lobby's strings live in their own file, and
// so do the board's words for assistive technology and placing.
import * as games from './strings/games.js';
import * as boardWords from './strings/board.js';

for (const [code, dict] of Object.entries(DICTS)) Object.assign(dict, games[code], boardWords[code]);
