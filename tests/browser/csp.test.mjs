// The CSP guard of the browser tests (csp.mjs) really catches violations: a page served
// under the server's policy that runs an inline script, an inline style attribute, or
// connects to another origin's WebSocket is reported; a clean page is not.
import test from 'node:test';
import assert from 'node:assert/strict';
import { watchCsp, cspViolations, assertNoCspViolations } from './csp.mjs';
import { chromiumPath, loadPlaywright } from './helpers.mjs';

const POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
  + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async function launch() {
  const { chromium } = await loadPlaywright();
  return watchCsp(await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] }));
}

// Serves `html` at http://csp.test/ under the policy, without any network.
async function open(browser, html) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route('http://csp.test/**', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/ok.js') {
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: 'document.body.dataset.ran = "1";' });
    }
    return route.fulfill({ status: 200, contentType: 'text/html', headers: { 'Content-Security-Policy': POLICY }, body: html });
  });
  await page.goto('http://csp.test/');
  return page;
}

test('the CSP guard reports inline scripts, inline styles and foreign connections, and nothing on a clean page', { timeout: 60000 }, async (t) => {
  const browser = await launch();
  t.after(() => browser.close().catch(() => {}));

  const clean = await open(browser, '<!doctype html><body><script src="/ok.js"></script></body>');
  await clean.waitForFunction(() => document.body.dataset.ran === '1');
  await clean.waitForTimeout(200);
  assert.deepEqual(cspViolations(browser), [], 'a page with only its own script file is clean');
  assert.doesNotThrow(() => assertNoCspViolations(browser));

  const bad = await open(browser, '<!doctype html><body><div style="color:red">x</div>'
    + '<script>document.body.dataset.inline = "1"</script></body>');
  await bad.evaluate(() => { try { new WebSocket('ws://elsewhere.invalid/ws'); } catch { /* refused */ } });
  await bad.waitForTimeout(500);
  assert.equal(await bad.evaluate(() => document.body.dataset.inline ?? null), null, 'the inline script did not run');
  const found = cspViolations(browser).join('\n');
  assert.match(found, /script-src/, 'the inline script is reported');
  assert.match(found, /style-src/, 'the inline style is reported');
  assert.match(found, /connect-src/, 'the foreign WebSocket is reported');
  assert.throws(() => assertNoCspViolations(browser), /Content-Security-Policy violations/);
});
