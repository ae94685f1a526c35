// Strings of sign-in on the start page (home/signin.js). Merged into i18n.js's dictionaries.

export const en = {
  'signin.title': 'Sign in',
  'signin.button': 'Sign in',
  'signin.why': 'Sign in with this server’s account to be the same player on every device.',
  'signin.as': 'Signed in as {name}',
  'signin.playerId': 'Player id: {id}',
  'signin.failed': 'Sign-in failed ({code}). Try again.',
};

export const ja = {
  'signin.title': 'サインイン',
  'signin.button': 'サインイン',
  'signin.why': 'このサーバーのアカウントでサインインすると、どの端末でも同じプレイヤーになります。',
  'signin.as': '{name} としてサインイン中',
  'signin.playerId': 'プレイヤーID: {id}',
  'signin.failed': 'サインインできませんでした（{code}）。もう一度お試しください。',
};

export const fr = {
  'signin.title': 'Connexion',
  'signin.button': 'Se connecter',
  'signin.why': 'Connectez-vous avec le compte de ce serveur pour être le même joueur sur tous vos appareils.',
  'signin.as': 'Connecté en tant que {name}',
  'signin.playerId': 'Identifiant de joueur : {id}',
  'signin.failed': 'La connexion a échoué ({code}). Réessayez.',
};

export const de = {
  'signin.title': 'Anmelden',
  'signin.button': 'Anmelden',
  'signin.why': 'Melde dich mit dem Konto dieses Servers an, um auf jedem Gerät derselbe Spieler zu sein.',
  'signin.as': 'Angemeldet als {name}',
  'signin.playerId': 'Spieler-ID: {id}',
  'signin.failed': 'Anmeldung fehlgeschlagen ({code}). Versuche es noch einmal.',
};

export const es = {
  'signin.title': 'Iniciar sesión',
  'signin.button': 'Iniciar sesión',
  'signin.why': 'Inicia sesión con la cuenta de este servidor para ser el mismo jugador en todos tus dispositivos.',
  'signin.as': 'Sesión iniciada como {name}',
  'signin.playerId': 'Id de jugador: {id}',
  'signin.failed': 'No se pudo iniciar sesión ({code}). Inténtalo de nuevo.',
};
