// Svc.init in a hash-routed app: the page's whole URL, its fragment included, is what the widget
// asks svc with, on load and on every change of the fragment, so that URL rules can tell the
// app's pages apart (/app#/settings from /app#/billing).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { base, eventually, launch, pk, respondent } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

test("a hash-routed page's fragment is sent with each ask, and a change of it asks again", async () => {
  const context = await browser.newContext();
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const errors = [];
  const asks = []; // the bodies of the next-survey asks
  tab.on("pageerror", (e) => errors.push(e));
  tab.on("request", (r) => r.url().endsWith("/v1/svc/next-survey") && asks.push(r.postDataJSON()));
  const who = respondent("hash-route");
  await tab.goto(`${base}/test/targeted.html?${new URLSearchParams({ pk, respondent: who, target: "none" })}#/settings`);
  await eventually(() => assert.equal(asks.length, 1, "the ask on load"));
  assert.match(asks[0].url, /\/test\/targeted\.html\?[^#]*target=none#\/settings$/);
  await tab.evaluate(() => (location.hash = "#/billing"));
  await eventually(() => assert.equal(asks.length, 2, "the ask on hashchange"));
  assert.match(asks[1].url, /target=none#\/billing$/);
  assert.equal(asks[1].url, await tab.evaluate(() => location.href));
  assert.deepEqual(errors, []);
  await context.close();
});
