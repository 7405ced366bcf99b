// What a person meets first: a survey that appears by itself takes no keystroke, "sent" is said
// only once it is true, refusals in plain words, what a question asks of them, and a host page
// that survives the widget not loading.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { base, eventually, history, launch, open, outcome, pk, respondent, responses, saved, sk, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const heading = (tab, name) => tab.getByRole("heading", { name, exact: true }).waitFor();
const focusIn = (tab) => tab.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);

test("a survey that appears while a person types in the page takes no keystroke and no focus", async () => {
  const who = respondent("typing");
  const s = surveys.demo;
  const { tab, context, errors, events } = await open(browser, { survey: s, who, params: { later: "1000", notes: "1" }, clock: true });
  const notes = tab.getByRole("textbox", { name: "Notes" });
  await notes.click();
  await tab.keyboard.type("Hello ");
  await tab.clock.fastForward(1000);
  await heading(tab, "How likely are you to recommend us to a friend?");
  // A space would choose 0 on the scale, and auto-progress would save it, were the focus moved.
  await tab.keyboard.type("world, and a space or two  then more.");
  assert.equal(await notes.inputValue(), "Hello world, and a space or two  then more.");
  assert.equal(await focusIn(tab), "notes");
  assert.equal(await tab.getByRole("radio", { name: "0", exact: true }).isChecked(), false);
  // Non-modal, announced politely, and reachable: it appeared by itself.
  const dialog = tab.getByRole("dialog", { name: "How are we doing?" });
  assert.equal(await dialog.getAttribute("aria-modal"), null);
  await tab.getByRole("status").filter({ hasText: "A short survey appeared: How are we doing?" }).waitFor();
  await eventually(async () => assert.deepEqual(events, ["view"]));
  assert.deepEqual(await responses(s, who), [], "no answer was recorded");
  // Tab from the page reaches it; from there the keyboard works it, and focus follows.
  await tab.getByRole("radio", { name: "0", exact: true }).focus();
  await tab.keyboard.press("ArrowRight");
  await tab.keyboard.press("Enter"); // 1: a detractor, asked what would make it better
  await heading(tab, "What would make it better?");
  assert.equal(await focusIn(tab), "SVC-SURVEY", "after a person's own answer, focus moves on with the survey");
  await saved(s, who, { nps: 1 });
  assert.deepEqual(errors, []);
  await context.close();
});

test("on load, by itself, a survey moves neither the focus nor the page; by a click, it takes the focus", async () => {
  const s = surveys.short;
  let p = await open(browser, { survey: s, who: respondent("load"), params: { inline: "1", spacer: "1" } });
  await p.tab.locator("#inline").getByRole("region", { name: "Quick check-in" }).waitFor();
  assert.equal(await focusIn(p.tab), "BODY");
  assert.equal(await p.tab.evaluate(() => scrollY), 0, "the page scrolled to the survey");
  await p.context.close();

  p = await open(browser, { survey: s, who: respondent("click"), gesture: "click" });
  await heading(p.tab, "How is your day?");
  assert.equal(await focusIn(p.tab), "SVC-SURVEY");
  assert.equal(await p.tab.getByRole("dialog", { name: "Quick check-in" }).getAttribute("aria-modal"), "true");
  await p.context.close();
});

test("the confirmation waits for the server; unsent answers are kept, said plainly, and sent on Try again", async () => {
  const who = respondent("ack");
  const s = surveys.short;
  const { tab, context } = await open(browser, { survey: s, who });
  await tab.getByRole("radio", { name: "4", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByRole("radio", { name: "Team", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await heading(tab, "One wish for us?");
  await tab.getByRole("textbox").fill("Faster");
  // The last PUT is held, then cut off as by a lost connection.
  let release;
  const held = new Promise((r) => (release = r));
  await tab.route("**/response/**", async (route) => {
    await held;
    await route.abort("internetdisconnected");
  });
  await tab.getByRole("button", { name: "Finish" }).click();
  await tab.getByRole("status").filter({ hasText: "Sending your answers…" }).waitFor();
  assert.equal(await tab.getByRole("heading", { name: "Thanks a lot" }).count(), 0, "thanked before the server had the answers");
  release();
  await tab.getByRole("alert").filter({ hasText: "Not sent yet: the server cannot be reached." }).waitFor();
  assert.equal(await tab.getByRole("heading", { name: "Thanks a lot" }).count(), 0);
  assert.match(await tab.evaluate(() => localStorage.getItem("svc:outbox")), /Faster/, "the answers wait on the device");
  await tab.unroute("**/response/**");
  await tab.getByRole("button", { name: "Try again" }).click();
  await heading(tab, "Thanks a lot");
  await saved(s, who, { mood: 4, plan: "Team", wish: "Faster" }, true);
  await context.close();
});

test("a survey closed while it is answered says so once and stops asking", async () => {
  const who = respondent("closed");
  // A survey of its own, so closing it changes no other test's.
  const def = { ...surveys.short, id: undefined, status: "active", title: "Closing soon" };
  delete def.id;
  const created = await fetch(`${base}/v1/protected/surveys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" },
    body: JSON.stringify({ title: def.title, status: "active", questions: def.questions, confirmation: def.confirmation,
      isBackNavigationAllowed: def.isBackNavigationAllowed, backButtonLabel: def.backButtonLabel }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const sv = await created.json();
  const { tab, context, events } = await open(browser, { survey: sv, who });
  await tab.getByRole("radio", { name: "2", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await heading(tab, "Which plan are you on?");
  const patched = await fetch(`${base}/v1/protected/surveys/${sv.id}`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" },
    body: '{"status":"inactive"}',
  });
  assert.equal(patched.status, 200);
  await tab.getByRole("radio", { name: "Team", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByText("This survey is no longer open. Thank you for your time.").waitFor();
  assert.equal(await tab.getByRole("heading", { name: "One wish for us?" }).count(), 0);
  assert.equal(await tab.getByRole("radio").count(), 0, "still asking");
  await tab.getByRole("button", { name: "Close" }).click();
  assert.equal((await outcome(tab)).outcome, "dismissed");
  assert.deepEqual(events, ["view"], "no dismissal is posted for a survey that is gone");
  await context.close();
});

test("what a question asks is said: required, how many to pick, descriptions, and stars that differ in shape", async () => {
  const s = surveys.demo;
  const { tab, context } = await open(browser, { survey: s, who: respondent("constraints") });
  await heading(tab, "How likely are you to recommend us to a friend?");
  await tab.getByText("Two minutes of your time helps us build a better product.").waitFor();
  const nps = tab.getByRole("radiogroup", { name: "How likely are you to recommend us to a friend?" });
  assert.equal(await nps.getAttribute("aria-required"), "true");
  await tab.getByText("Required", { exact: true }).waitFor();
  await tab.getByRole("radio", { name: "9", exact: true }).click();
  await heading(tab, "How would you rate the new dashboard?");
  assert.equal(await tab.getByText("Required", { exact: true }).count(), 0, "an optional question marked required");
  await tab.getByRole("radio", { name: "3", exact: true }).check();
  const faces = await tab.evaluate(() =>
    Array.from(document.querySelector("svc-survey").shadowRoot.querySelectorAll('[part="score"]'), (f) => f.textContent).join(""),
  );
  assert.equal(faces, "★★★☆☆", "lit and unlit stars must differ in shape, not colour alone");
  await tab.getByRole("button", { name: "Next" }).click();
  await heading(tab, "Which feature do you use most?");
  const other = tab.getByRole("textbox", { name: "Something else" });
  assert.equal(await other.evaluate((el) => el.getRootNode().getElementById(el.getAttribute("aria-describedby")).textContent),
    "Name a feature the list does not have.");
  await tab.getByText("Name a feature the list does not have.").waitFor();
  await context.close();

  const p = await open(browser, { survey: s, who: respondent("constraints") });
  await p.tab.getByRole("radio", { name: "2", exact: true }).click(); // a detractor: on to the multi-select
  await heading(p.tab, "What would make it better?");
  await p.tab.getByText("Pick up to 3").waitFor();
  const group = p.tab.getByRole("group", { name: "What would make it better?" });
  const hint = await p.tab.evaluate(() => {
    const root = document.querySelector("svc-survey").shadowRoot;
    const g = root.querySelector('[role="group"]');
    return g.getAttribute("aria-describedby").split(" ").map((id) => root.getElementById(id).textContent).join(" / ");
  });
  assert.equal(hint, "Pick up to 3");
  assert.equal(await group.getByRole("checkbox").count(), 4);
  await p.context.close();
});

test("the README's snippet: a page whose widget.js cannot load throws nothing", async () => {
  for (const fails of [false, true]) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    if (fails) await tab.route("**/v1/svc/widget.js", (route) => route.fulfill({ status: 503, body: "down" }));
    const who = respondent("snippet");
    // The page's URL matches the welcome survey's display rule.
    await tab.goto(`${base}/test/snippet.html?${new URLSearchParams({ pk, respondent: who, target: "load" })}`);
    if (!fails) await heading(tab, "How is your day?");
    else await tab.waitForLoadState("load");
    assert.deepEqual(errors, [], fails ? "with widget.js missing" : "with widget.js there");
    assert.equal(await tab.evaluate(() => typeof window.Svc), fails ? "undefined" : "object");
    await context.close();
  }
});
