// A push service and a webhook receiver of the tests' own (docs/turn-based.md): a local HTTPS
// endpoint with a certificate made by openssl for 127.0.0.1 (the server trusts it through
// --extra-ca), RFC 8291 decryption with the subscription's private key, and the check of
// the RFC 8292 VAPID signature.

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

export const b64url = (b) => Buffer.from(b).toString('base64url');

/** A receiver recording every POST; `https` with a certificate made by openssl for 127.0.0.1. */
export async function receiver(tls) {
  const got = [];
  const handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  };
  const srv = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { got, srv, base: `${tls ? 'https' : 'http'}://127.0.0.1:${srv.address().port}` };
}

/** RFC 8291 decryption with the subscription's private key (aes128gcm, one record). */
export function decrypt(ecdh, auth, body) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const sealed = body.subarray(21 + idlen);
  const secret = ecdh.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', secret, auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
  assert.equal(plain[plain.length - 1], 2, 'the last record\'s delimiter');
  return JSON.parse(plain.subarray(0, plain.length - 1).toString('utf8'));
}

/** RFC 8292: the JWT of "vapid t=..., k=..." is signed by k, the server's key; its claims. */
export function checkVapid(header, serverKey, audience) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  assert.ok(m, header);
  assert.equal(m[2], serverKey);
  const [h, c, s] = m[1].split('.');
  const raw = Buffer.from(serverKey, 'base64url');
  const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) }, format: 'jwk' });
  assert.ok(crypto.verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')), 'the VAPID signature checks');
  const claims = JSON.parse(Buffer.from(c, 'base64url'));
  assert.equal(claims.aud, audience);
  assert.ok(claims.exp > Date.now() / 1000);
  return claims;
}

export async function waitFor(pred, what, ms = 20000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A certificate for 127.0.0.1 in `dir` (cert.pem, key.pem): {key, cert, certFile} for receiver(). */
export function makeCert(dir) {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-addext', 'basicConstraints=critical,CA:TRUE',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')), certFile: path.join(dir, 'cert.pem') };
}
