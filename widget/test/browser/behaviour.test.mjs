// Dismissing, keyboard use, failures and retries, skipping, inline rendering.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { base, eventually, history, launch, open, outcome, pk, respondent, responses, saved, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const heading = (tab, name) => tab.getByRole("heading", { name, exact: true }).waitFor();

for (const how of ["the Close button", "Escape"]) {
  test(`dismissed with ${how}: one view and one dismiss event, and the outcome`, async () => {
    const who = respondent("dismiss");
    const s = surveys.short;
    const { tab, context, events } = await open(browser, { survey: s, who, gesture: "click" });
    await heading(tab, "How is your day?");
    await eventually(async () => assert.ok((await history(s, who)).lastViewedAt, "the view was recorded"));
    if (how === "Escape") await tab.keyboard.press("Escape");
    else await tab.getByRole("button", { name: "Close" }).click();
    assert.deepEqual(await outcome(tab), { outcome: "dismissed" });
    assert.equal(await tab.locator("svc-survey").count(), 0);
    await eventually(async () => assert.ok((await history(s, who)).lastDismissedAt, "the dismissal was recorded"));
    assert.deepEqual(await responses(s, who), []);
    await tab.evaluate(() => Svc.close()); // closing again does nothing more
    assert.deepEqual(events, ["view", "dismiss"]);
    await context.close();
  });
}

test("completed with the keyboard alone, focus kept in the dialog, arrows never auto-progress", async () => {
  const who = respondent("keyboard");
  const { tab, context } = await open(browser, { survey: surveys.demo, who, gesture: "key" });
  await heading(tab, "How likely are you to recommend us to a friend?");
  // Opened by a key press, focus starts in the dialog, on the first score; arrows choose
  // without moving on.
  const focused = () => tab.evaluate(() => document.querySelector("svc-survey")?.shadowRoot?.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName);
  assert.equal(await focused(), "0");
  await tab.keyboard.press("ArrowRight");
  await tab.keyboard.press("ArrowRight");
  assert.equal(await tab.getByRole("radio", { name: "2", exact: true }).isChecked(), true);
  await heading(tab, "How likely are you to recommend us to a friend?");
  // Tab cycles inside the dialog and never reaches the page's own button.
  for (let i = 0; i < 6; i++) {
    await tab.keyboard.press("Tab");
    assert.equal(await tab.evaluate(() => document.activeElement?.tagName), "SVC-SURVEY");
  }
  await context.close();

  const who2 = respondent("keyboard");
  const s = surveys.short;
  const second = await open(browser, { survey: s, who: who2, gesture: "key" });
  const t = second.tab;
  await heading(t, "How is your day?");
  for (let i = 0; i < 3; i++) await t.keyboard.press("ArrowRight"); // 1 -> 4
  await t.keyboard.press("Enter");
  await heading(t, "Which plan are you on?");
  await t.keyboard.press("ArrowDown"); // Free -> Team
  await t.keyboard.press("Enter");
  await heading(t, "One wish for us?");
  await t.keyboard.type("Dark mode");
  await t.keyboard.press("Tab"); // Previous
  await t.keyboard.press("Tab"); // Finish
  await t.keyboard.press("Enter");
  await heading(t, "Thanks a lot");
  await saved(s, who2, { mood: 4, plan: "Team", wish: "Dark mode" }, true);
  await t.keyboard.press("Enter"); // the confirmation's Done has focus
  assert.equal((await outcome(t)).outcome, "completed");
  await second.context.close();
});

test("autoCloseSeconds closes the confirmation by itself, never while the pointer is over it", async () => {
  const who = respondent("autoclose");
  const s = surveys.short;
  const { tab, context, errors } = await open(browser, { survey: s, who, params: { autoclose: "8" }, clock: true });
  await tab.mouse.move(1, 1); // the dialog is in the other corner
  await heading(tab, "How is your day?");
  await tab.getByRole("radio", { name: "4", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByRole("radio", { name: "Team", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByRole("button", { name: "Finish" }).click();
  await heading(tab, "Thanks a lot");
  const shown = () => tab.locator("svc-survey").count();
  await tab.clock.fastForward(60_000);
  assert.equal(await shown(), 1, "closed while the pointer was still where Finish was clicked");
  await tab.mouse.move(1, 1);
  await tab.clock.fastForward(7_000);
  assert.equal(await shown(), 1, "closed before its 8 seconds");
  await tab.getByRole("dialog").hover();
  await tab.clock.fastForward(60_000);
  assert.equal(await shown(), 1, "closed while the pointer was over it");
  await tab.mouse.move(1, 1);
  await tab.clock.fastForward(7_000);
  assert.equal(await shown(), 1, "not counted again from the start when the pointer left");
  await tab.keyboard.press("Tab"); // focus is on Done, in the dialog
  await tab.clock.fastForward(7_000);
  assert.equal(await shown(), 1, "not counted again from the start when a key was pressed in it");
  await tab.clock.fastForward(2_000);
  assert.deepEqual(await outcome(tab), { outcome: "completed", responseId: (await saved(s, who, { mood: 4, plan: "Team" }, true)).id });
  assert.equal(await shown(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Svc.show refuses an autoCloseSeconds that is not 0 to 86400 seconds", async () => {
  for (const bad of ["-1", "1e9", "NaN"]) {
    const { tab, context } = await open(browser, { survey: surveys.short, who: respondent("autoclose-bad"), params: { autoclose: bad } });
    await assert.rejects(outcome(tab), /autoCloseSeconds/, bad);
    assert.equal(await tab.locator("svc-survey").count(), 0);
    await context.close();
  }
});

test("a PUT that fails on the network is kept and retried until it reaches the server", async () => {
  const who = respondent("offline");
  const s = surveys.short;
  const { tab, context } = await open(browser, { survey: s, who });
  await heading(tab, "How is your day?");
  let failures = 0;
  await tab.route("**/response/**", (route) => {
    if (failures < 2) {
      failures++;
      return route.abort("internetdisconnected");
    }
    return route.continue();
  });
  await tab.getByRole("radio", { name: "5", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  // The person goes on at once; the answer waits in localStorage meanwhile.
  await heading(tab, "Which plan are you on?");
  await eventually(async () => assert.equal(failures, 2));
  const r = await saved(s, who, { mood: 5 });
  assert.ok(r);
  await eventually(async () => assert.equal(await tab.evaluate(() => localStorage.getItem("svc:outbox")), null));
  await context.close();
});

test("a 503 is retried, honouring Retry-After; a 400 is shown and never retried", async () => {
  const who = respondent("refused");
  const s = surveys.short;
  const { tab, context } = await open(browser, { survey: s, who });
  await heading(tab, "How is your day?");
  const seen = [];
  await tab.route("**/response/**", (route) => {
    seen.push(Date.now());
    if (seen.length === 1) return route.fulfill({ status: 503, headers: { "retry-after": "1", "content-type": "application/json" }, body: '{"error":"busy"}' });
    return route.continue();
  });
  await tab.getByRole("radio", { name: "1", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await saved(s, who, { mood: 1 });
  assert.equal(seen.length, 2);
  assert.ok(seen[1] - seen[0] >= 900, `retried after ${seen[1] - seen[0]} ms, Retry-After said 1 s`);

  await tab.unroute("**/response/**");
  let puts = 0;
  await tab.route("**/response/**", (route) => {
    puts++;
    return route.fulfill({ status: 400, headers: { "content-type": "application/json" }, body: '{"error":"answer to \\"plan\\" is not an option","code":"invalid_request"}' });
  });
  await tab.getByRole("radio", { name: "Free" }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  // In the person's words, not the server's, with a way to try again.
  await tab.getByRole("alert").filter({ hasText: "Your answers could not be saved." }).waitFor();
  assert.equal(await tab.getByRole("alert").filter({ hasText: "not an option" }).count(), 0);
  await tab.getByRole("button", { name: "Try again" }).waitFor();
  await new Promise((r) => setTimeout(r, 1500)); // long enough for a retry, were there one
  assert.equal(puts, 1);
  assert.equal(await tab.evaluate(() => localStorage.getItem("svc:outbox")), null);
  await context.close();
});

test("skipIfResponded and cooldownDays skip without rendering", async () => {
  const s = surveys.short;
  const who = respondent("skip");
  // Dismissed a moment ago: a cooldown skips it, and without one it shows.
  let p = await open(browser, { survey: s, who });
  await p.tab.getByRole("button", { name: "Close" }).click();
  await outcome(p.tab);
  await p.context.close();
  p = await open(browser, { survey: s, who, params: { cooldown: "1" } });
  assert.deepEqual(await outcome(p.tab), { outcome: "skipped" });
  assert.equal(await p.tab.locator("svc-survey").count(), 0);
  await p.context.close();

  // Responded (from another browser, say): skipped by default, shown with skipIfResponded false.
  const who2 = respondent("skip");
  const res = await fetch(`${base}/v1/svc/${s.id}/response/${crypto.randomUUID()}`, {
    method: "PUT",
    headers: { "x-svc-pk": pk, "content-type": "application/json" },
    body: JSON.stringify({ respondent: who2, data: { mood: 3 }, metadata: {} }),
  });
  assert.equal(res.status, 200);
  p = await open(browser, { survey: s, who: who2 });
  assert.deepEqual(await outcome(p.tab), { outcome: "skipped" });
  await p.context.close();
  p = await open(browser, { survey: s, who: who2, params: { skip: "0" } });
  await heading(p.tab, "How is your day?");
  await p.context.close();
});

test("with a target it renders inline, as a region named by the survey, not a dialog", async () => {
  const who = respondent("inline");
  const s = surveys.short;
  const { tab, context } = await open(browser, { survey: s, who, params: { inline: "1" } });
  const region = tab.locator("#inline").getByRole("region", { name: "Quick check-in" });
  await region.waitFor();
  assert.equal(await tab.getByRole("dialog").count(), 0);
  await region.getByRole("radio", { name: "3", exact: true }).check();
  await region.getByRole("button", { name: "Continue" }).click();
  await saved(s, who, { mood: 3 });
  await context.close();
});

test("on a page of another origin: widget.js from svc, the API beside it, through CORS", async () => {
  const other = process.env.SVC_E2E_OTHER_ORIGIN;
  assert.ok(other && new URL(other).origin !== new URL(base).origin);
  const who = respondent("cross");
  const s = surveys.short;
  const context = await browser.newContext();
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const q = new URLSearchParams({ survey: s.id, pk, respondent: who, api: base });
  await tab.goto(`${other}/test/cross.html?${q}`);
  await heading(tab, "How is your day?");
  await tab.getByRole("radio", { name: "3", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await saved(s, who, { mood: 3 });
  await tab.getByRole("button", { name: "Close" }).click();
  assert.equal((await outcome(tab)).outcome, "dismissed");
  await eventually(async () => assert.ok((await history(s, who)).lastDismissedAt));
  await context.close();
});

test("the script defines window.Svc and no other global", async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${base}/test/blank.html`);
  const names = () => tab.evaluate(() => Object.getOwnPropertyNames(window));
  const before = new Set(await names());
  await tab.addScriptTag({ url: `${base}/v1/svc/widget.js` });
  const added = (await names()).filter((n) => !before.has(n));
  assert.deepEqual(added, ["Svc"]);
  assert.deepEqual(await tab.evaluate(() => Object.keys(Svc).sort()), ["close", "init", "preview", "reset", "setAttributes", "show", "track"]);
  // Wrong options are refused with a clear error, before anything is fetched or shown.
  const err = await tab.evaluate(() => Svc.show({ surveyId: "x", respondent: "y" }).catch((e) => e.message));
  assert.equal(err, "Svc.show: publishableKey is required (a non-empty string)");
  const initErr = await tab.evaluate(() => {
    try {
      Svc.init({ respondent: "y" });
    } catch (e) {
      return e.message;
    }
  });
  assert.equal(initErr, "Svc.init: publishableKey is required (a non-empty string)");
  assert.equal(await tab.locator("svc-survey").count(), 0);
  await context.close();
});

test("Svc.show called from a script in <head>, before <body> exists, shows the survey", async () => {
  const who = respondent("early");
  const { tab, context, errors } = await open(browser, { survey: surveys.short, who, page: "early" });
  await heading(tab, "How is your day?");
  await tab.getByRole("button", { name: "Close" }).click();
  assert.equal((await outcome(tab)).outcome, "dismissed");
  assert.deepEqual(errors, []);
  await context.close();
});
