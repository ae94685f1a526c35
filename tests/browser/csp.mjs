// Content-Security-Policy violations fail the browser tests. `watchCsp(browser)` makes
// every context of `browser` (and browser.newPage's) record them: the browser's own
// console reports ("Refused to ... because it violates the following Content Security
// Policy directive") and the page's securitypolicyviolation events. Use it where a test
// file launches its browser, then call `assertNoCspViolations(browser)` at the end (e.g.
// in t.after, which fails the test when it throws).

const seen = new WeakMap();  // browser -> [violation text]
const CSP = /Content Security Policy|CSP violation/i;

async function watchContext(context, list) {
  context.on('console', (msg) => {
    if (CSP.test(msg.text())) list.push(`${msg.type()}: ${msg.text()} (${msg.location()?.url ?? '?'})`);
  });
  // Init scripts run outside the page's policy, before the page's own scripts.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    }, true);
  });
}

export function watchCsp(browser) {
  if (seen.has(browser)) return browser;
  const list = [];
  seen.set(browser, list);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    await watchContext(context, list);
    return context;
  };
  // browser.newPage makes its own context: give it the same watch.
  browser.newPage = async (...args) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    page.on('close', () => context.close().catch(() => {}));
    return page;
  };
  return browser;
}

export function cspViolations(browser) {
  return seen.get(browser) ?? [];
}

export function assertNoCspViolations(browser) {
  const list = cspViolations(browser);
  if (list.length > 0) throw new Error(`Content-Security-Policy violations in the pages:\n  ${[...new Set(list)].join('\n  ')}`);
}
