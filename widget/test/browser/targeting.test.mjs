// Svc.init: svc picks the survey on the server (docs/api.md#display-rules), and the widget shows
// it by itself, on load, after a single-page navigation, on an event, after a delay, without
// taking a keystroke.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { base, eventually, history, launch, pk, respondent, responses, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const focusIn = (tab) => tab.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);

// openTargeted loads the single-page app with Svc.init; target names the survey its URL asks
// for (its rules match target=...).
async function openTargeted({ who, target = "none", clock = false }) {
  const context = await browser.newContext();
  if (clock) await context.clock.install();
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const errors = [];
  const asks = []; // the bodies of the next-survey asks
  tab.on("pageerror", (e) => errors.push(e));
  tab.on("request", (r) => r.url().endsWith("/v1/svc/next-survey") && asks.push(r.postDataJSON()));
  await tab.goto(`${base}/test/targeted.html?${new URLSearchParams({ pk, respondent: who, target })}`);
  return { context, tab, errors, asks };
}

const survey = (tab, name) => tab.getByRole("dialog", { name });

test("init asks on load and shows what svc picks, by itself: no focus taken, the view recorded", async () => {
  const who = respondent("init-load");
  const { tab, context, errors, asks } = await openTargeted({ who, target: "load" });
  await survey(tab, "Welcome survey").waitFor();
  assert.equal(await survey(tab, "Welcome survey").getAttribute("aria-modal"), null, "non-modal: it appeared by itself");
  assert.equal(await focusIn(tab), "BODY");
  assert.equal(asks.length, 1);
  assert.equal(asks[0].respondent, who);
  assert.match(asks[0].url, /\/test\/targeted\.html\?.*target=load/);
  await eventually(async () => assert.ok((await history(surveys.targetload, who)).lastViewedAt, "the widget recorded the view"));
  assert.deepEqual(errors, []);
  await context.close();
});

test("a pushState navigation asks again, and a survey whose URL rule it matches appears", async () => {
  const who = respondent("init-nav");
  const { tab, context, errors, asks } = await openTargeted({ who });
  await eventually(() => assert.equal(asks.length, 1, "the ask on load"));
  assert.equal(await tab.locator("svc-survey").count(), 0, "nothing for this page");
  await tab.getByRole("button", { name: "Go to billing" }).click();
  await survey(tab, "Billing survey").waitFor();
  assert.match(asks[1].url, /\/spa\/billing\?/);
  assert.equal(await focusIn(tab), "billing", "the survey took no focus from the page's button");
  assert.deepEqual(errors, []);
  await context.close();
});

test("track asks with the event, and a survey that waits for it appears", async () => {
  const who = respondent("init-track");
  const { tab, context, errors, asks } = await openTargeted({ who, target: "event" });
  await eventually(() => assert.equal(asks.length, 1));
  assert.equal(await tab.locator("svc-survey").count(), 0, "a survey waiting for an event is not shown on load");
  await tab.getByRole("button", { name: "Upgrade" }).click();
  await survey(tab, "Upgrade survey").waitFor();
  assert.equal(asks[1].event, "upgraded");
  assert.equal(await focusIn(tab), "upgrade");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a survey's delay runs on the page's clock, and a person typing meanwhile loses no keystroke", async () => {
  const who = respondent("init-delay");
  const { tab, context, errors, asks } = await openTargeted({ who, target: "delay", clock: true });
  await eventually(() => assert.equal(asks.length, 1));
  const notes = tab.getByRole("textbox", { name: "Notes" });
  await notes.click();
  await tab.keyboard.type("Dear team, ");
  await tab.clock.fastForward(29_000);
  assert.equal(await tab.locator("svc-survey").count(), 0, "shown before its delay");
  await tab.clock.fastForward(1_500);
  await survey(tab, "Delayed survey").waitFor();
  // A space would pick a star were the focus moved to the survey.
  await tab.keyboard.type("the new billing page is clear, thanks 1 2 3.");
  assert.equal(await notes.inputValue(), "Dear team, the new billing page is clear, thanks 1 2 3.");
  assert.equal(await focusIn(tab), "notes");
  assert.deepEqual(await responses(surveys.targetdelay, who), [], "no answer was recorded");
  assert.deepEqual(errors, []);
  await context.close();
});

test("reset forgets the person: the survey on screen goes, without a dismissal, and no more asks", async () => {
  const who = respondent("init-reset");
  const { tab, context, errors, asks } = await openTargeted({ who, target: "load" });
  await survey(tab, "Welcome survey").waitFor();
  // A navigation asks at once, in the click's own task: counting the page's fetches tells.
  await tab.evaluate(() => {
    window.asked = 0;
    const f = window.fetch;
    window.fetch = (u, ...rest) => (String(u).endsWith("/next-survey") && window.asked++, f(u, ...rest));
  });
  await tab.evaluate(() => Svc.reset());
  assert.equal(await tab.locator("svc-survey").count(), 0);
  await tab.getByRole("button", { name: "Go to billing" }).click();
  await tab.evaluate(() => Svc.track("upgraded"));
  assert.equal(await tab.evaluate(() => window.asked), 0, "asked after reset");
  assert.equal(asks.length, 1);
  assert.equal((await history(surveys.targetload, who)).lastDismissedAt, null, "reset recorded a dismissal");
  assert.deepEqual(errors, []);
  await context.close();
});
