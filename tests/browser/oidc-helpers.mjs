// OpenID Connect providers for the sign-in tests (docs/community.md, "Sign-in"):
//  - startProvider: a real one, npm's oidc-provider, on 127.0.0.1 with one confidential
//    client (the server under test) and its development login form (any login, any password;
//    the login becomes the account's subject, "Player <login>" its name);
//  - startFakeProvider: a small hand-made one whose token endpoint answers with an ID token
//    spoilt on purpose (tampered, expired, another nonce or issuer, no signature), to see
//    the server refuse each.

import http from 'node:http';
import crypto from 'node:crypto';
import assert from 'node:assert/strict';

export const CLIENT_ID = 'carc-test';
export const CLIENT_SECRET = 'a-client-secret-for-tests-only-0123456789';

export async function startProvider({ port, redirectUri }) {
  const { default: Provider } = await import('oidc-provider');
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri],
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    features: { devInteractions: { enabled: true } },
    claims: { openid: ['sub'], profile: ['name'] },
    conformIdTokenClaims: false,  // the profile's name in the ID token itself
    findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: id, name: `Player ${id}` }) }),
    cookies: { keys: ['test-cookie-key-0123456789'] },
  });
  const server = http.createServer(provider.callback());
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

const b64url = (buf) => Buffer.from(buf).toString('base64url');

/**
 * `spoil` (set per test, may change between sign-ins): how the next ID token is made wrong:
 * null (a good token), 'tampered', 'expired', 'nonce', 'issuer', 'audience', 'none' (no
 * signature), or 'iss-param' (the authorization response names another issuer).
 * `foreignTokenEndpoint`: the discovery names the token endpoint on another host
 * ("localhost", a loopback name that is not the issuer's host). `discoveryIssuer`: the
 * issuer the discovery document claims (another than its own address: a misconfiguration).
 */
export async function startFakeProvider({ port, foreignTokenEndpoint = false, discoveryIssuer = null }) {
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'fake-1', use: 'sig', alg: 'RS256' };
  const codes = new Map();  // code -> { nonce, challenge, redirect }
  const state = { spoil: null, tokenRequests: 0 };
  const sign = (header, claims) => {
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    return `${input}.${b64url(crypto.sign('sha256', Buffer.from(input), privateKey))}`;
  };
  const idToken = (nonce, subject) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: issuer, aud: CLIENT_ID, sub: subject, nonce, iat: now, exp: now + 300, name: `Fake ${subject}` };
    if (state.spoil === 'expired') Object.assign(claims, { iat: now - 3600, exp: now - 600 });
    if (state.spoil === 'nonce') claims.nonce = 'not-the-nonce';
    if (state.spoil === 'issuer') claims.iss = 'http://127.0.0.1:1/elsewhere';
    if (state.spoil === 'audience') claims.aud = 'another-client';
    if (state.spoil === 'none') return `${b64url(JSON.stringify({ alg: 'none', kid: 'fake-1' }))}.${b64url(JSON.stringify(claims))}.`;
    const token = sign({ alg: 'RS256', kid: 'fake-1', typ: 'JWT' }, claims);
    if (state.spoil !== 'tampered') return token;
    const [h, , s] = token.split('.');
    return `${h}.${b64url(JSON.stringify({ ...claims, sub: 'mallory' }))}.${s}`;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, issuer);
    const json = (status, body) => { res.writeHead(status, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(body)); };
    if (url.pathname === '/.well-known/openid-configuration') {
      const tokenEndpoint = foreignTokenEndpoint ? `http://localhost:${port}/token` : `${issuer}/token`;
      return json(200, { issuer: discoveryIssuer ?? issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: tokenEndpoint, jwks_uri: `${issuer}/jwks` });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      // Signs in "alice" at once.
      const q = url.searchParams;
      const code = crypto.randomBytes(12).toString('base64url');
      codes.set(code, { nonce: q.get('nonce'), challenge: q.get('code_challenge'), redirect: q.get('redirect_uri') });
      const back = new URL(q.get('redirect_uri'));
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state'));
      back.searchParams.set('iss', state.spoil === 'iss-param' ? 'http://127.0.0.1:1/elsewhere' : issuer);
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        state.tokenRequests++;
        const form = new URLSearchParams(body);
        const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
        if (req.headers.authorization !== basic) return json(401, { error: 'invalid_client' });
        const c = codes.get(form.get('code'));
        codes.delete(form.get('code'));
        if (!c || form.get('redirect_uri') !== c.redirect) return json(400, { error: 'invalid_grant' });
        const challenge = b64url(crypto.createHash('sha256').update(form.get('code_verifier') ?? '').digest());
        if (challenge !== c.challenge) return json(400, { error: 'invalid_grant', error_description: 'PKCE' });
        json(200, { access_token: 'at', token_type: 'Bearer', id_token: idToken(c.nonce, 'alice') });
      });
      return undefined;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, state, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

// Driving a sign-in without a browser: the redirects followed by hand, the cookie carried.

export async function newKey(base) {
  const res = await fetch(`${base}/api/keys`, { method: 'POST', body: '{}' });
  return (await res.json()).key;
}

export const me = async (base, key) => (await fetch(`${base}/api/me`, { headers: { Authorization: `Bearer ${key}` } })).json();

/** Starts a sign-in with `key`; returns the provider's URL and the browser's cookie. */
export async function startSignin(base, key) {
  const res = await fetch(`${base}/api/signin/start`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: '{}' });
  assert.equal(res.status, 200, await res.clone().text());
  const cookie = res.headers.get('set-cookie').split(';')[0];
  assert.match(cookie, /^carc_signin=[A-Za-z0-9_-]+$/);
  return { url: (await res.json()).url, cookie };
}

/** The provider's answer (its redirect to the callback), then the server's; returns where the browser lands. */
export async function roundTrip(base, key, { cookie: useCookie = true, tweak = (u) => u } = {}) {
  const { url, cookie } = await startSignin(base, key);
  const toProvider = await fetch(url, { redirect: 'manual' });
  assert.equal(toProvider.status, 302);
  const callback = tweak(new URL(toProvider.headers.get('location')));
  const back = await fetch(callback, { redirect: 'manual', headers: useCookie ? { Cookie: cookie } : {} });
  assert.equal(back.status, 303);
  return { location: new URL(back.headers.get('location')), callback };
}
