// The rarer question types (matrix, ranking, date, consent, call to action, contact) and the
// thumbs and effort ratings, answered by mouse and by keyboard alone at 320 px, found by roles and
// accessible names, with what the server stored read back through the protected API, and axe-core
// finding nothing wrong on any screen. They come from widget/questions.js, which only such a survey
// loads.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";
import { launch, open, outcome, respondent, saved, surveys } from "./helpers.mjs";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const heading = (tab, name) => tab.getByRole("heading", { name, exact: true }).waitFor();
const narrow = { width: 320, height: 640 };

// axe checks the widget against WCAG 2.2 A and AA and axe's best practices.
async function axe(tab, screen) {
  if (!(await tab.evaluate(() => "axe" in window))) await tab.addScriptTag({ path: axePath });
  const found = await tab.evaluate(async () => {
    const r = await window.axe.run(
      { include: [["svc-survey"]] },
      { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] } },
    );
    return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
  assert.deepEqual(found, [], `axe on ${screen}`);
}

// loadedQuestions tells whether the page loaded widget/questions.js.
const loadedQuestions = (tab) =>
  tab.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("/v1/svc/widget/questions.js")));

// fits says the widget is no wider than the screen: nothing to scroll sideways at 320 px.
async function fits(tab) {
  const [scroll, client] = await tab.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `the page scrolls sideways: ${scroll} > ${client}`);
}

const want = {
  // Objects as the server stores them, their members in order.
  grid: { price: "ok", speed: "good" },
  order: ["c", "a", "b"],
  when: "2026-03-14",
  agree: true,
  reach: { email: "ann@example.com", name: "Ann Lee", phone: "+44 20 7946 0958" },
  thumb: 2,
  effort: 6,
};

for (const scheme of ["light", "dark"]) {
  test(`every new type answered with the mouse at 320 px, axe clean (${scheme})`, async () => {
    const who = respondent(`more-mouse-${scheme}`);
    const s = surveys.more;
    const { tab, context, errors } = await open(browser, { survey: s, who, viewport: narrow, gesture: "click", params: { scheme } });
    // The rarer types come from questions.js, loaded because this survey has them.
    await heading(tab, "How do you rate each?");
    assert.ok(await loadedQuestions(tab), "questions.js was not loaded");

    // The matrix: a radio group per row, named by the row, of radios named by the columns.
    const speed = tab.getByRole("radiogroup", { name: "Speed" });
    assert.deepEqual(await speed.getByRole("radio").evaluateAll((els) => els.map((e) => e.labels[0].textContent)), ["Bad", "Fine", "Good"]);
    await speed.getByRole("radio", { name: "Good" }).check();
    await tab.getByRole("button", { name: "Next" }).click();
    // Required: every row, as the server checks; the message says so.
    await tab.getByRole("alert").filter({ hasText: "every row" }).waitFor();
    await axe(tab, "matrix with its message");
    await fits(tab);
    await tab.getByRole("radiogroup", { name: "Price" }).getByRole("radio", { name: "Fine" }).check();
    await tab.getByRole("button", { name: "Next" }).click();
    await heading(tab, "Rank these features");
    await saved(s, who, { grid: want.grid });

    // The ranking: Move up and Move down named per option, each move announced.
    assert.equal(await tab.getByRole("button", { name: "Move Alerts up" }).isDisabled(), true);
    await tab.getByRole("button", { name: "Move Charts up" }).click();
    await tab.getByRole("status").filter({ hasText: "Charts: position 2 of 3" }).waitFor();
    await tab.getByRole("button", { name: "Move Charts up" }).click();
    await tab.getByRole("status").filter({ hasText: "Charts: position 1 of 3" }).waitFor();
    assert.deepEqual(await tab.getByRole("listitem").allTextContents(), ["1.Charts↑↓", "2.Alerts↑↓", "3.Boards↑↓"]);
    await axe(tab, "ranking");
    await fits(tab);
    await tab.getByRole("button", { name: "Next" }).click();
    await heading(tab, "When did you start?");

    const when = tab.getByRole("textbox", { name: "When did you start?" });
    assert.deepEqual([await when.getAttribute("type"), await when.getAttribute("min"), await when.getAttribute("max")], ["date", "2026-01-01", "2026-12-31"]);
    await when.fill(want.when);
    await axe(tab, "date");
    await tab.getByRole("button", { name: "Next" }).click();
    await heading(tab, "Terms");

    await tab.getByRole("button", { name: "Next" }).click(); // required: consent first
    await tab.getByRole("alert").filter({ hasText: /./ }).waitFor();
    await tab.getByRole("checkbox", { name: "I agree to the terms" }).check();
    await axe(tab, "consent");
    await tab.getByRole("button", { name: "Next" }).click();
    await heading(tab, "How do we reach you?");

    const email = tab.getByRole("textbox", { name: "E-mail *" });
    assert.deepEqual([await email.getAttribute("type"), await email.getAttribute("autocomplete")], ["email", "email"]);
    assert.equal(await tab.getByRole("textbox", { name: "Phone" }).getAttribute("type"), "tel");
    await tab.getByRole("textbox", { name: "Name" }).fill(want.reach.name);
    await email.fill("ann at example");
    await tab.getByRole("button", { name: "Next" }).click();
    await tab.getByRole("alert").filter({ hasText: "E-mail: please enter an e-mail address" }).waitFor();
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    await axe(tab, "contact with its message");
    await fits(tab);
    await email.fill(want.reach.email);
    await tab.getByRole("textbox", { name: "Phone" }).fill(want.reach.phone);
    await tab.getByRole("button", { name: "Next" }).click();
    await heading(tab, "Was this useful?");

    const up = tab.getByRole("button", { name: "Thumbs up" });
    assert.equal(await up.getAttribute("aria-pressed"), "false");
    await up.click();
    assert.equal(await up.getAttribute("aria-pressed"), "true");
    assert.equal(await tab.getByRole("button", { name: "Thumbs down" }).getAttribute("aria-pressed"), "false");
    await axe(tab, "thumbs");
    await tab.getByRole("button", { name: "Next" }).click();
    await heading(tab, "How easy was it?");

    const effort = tab.getByRole("radiogroup", { name: "How easy was it?" });
    assert.deepEqual(await effort.getByRole("radio").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))), ["1", "2", "3", "4", "5", "6", "7"]);
    await effort.getByRole("radio", { name: "6" }).check();
    await tab.getByRole("button", { name: "Next" }).click();
    await heading(tab, "Talk to us");

    // The call to action: its button opens its address in a new tab and answers "clicked".
    await axe(tab, "call to action");
    const popup = context.waitForEvent("page");
    await tab.getByRole("button", { name: "Book a call" }).click();
    const opened = await popup;
    assert.match(opened.url(), /^(http:\/\/127\.0\.0\.1:9\/book|about:blank|chrome-error:)/);
    await heading(tab, "Thanks!");
    await saved(s, who, { ...want, act: "clicked" }, true);
    await tab.getByRole("button", { name: "Close" }).click();
    assert.equal((await outcome(tab)).outcome, "completed");
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("every new type answered by keyboard alone, right to left, the call to action dismissed", async () => {
  const who = respondent("more-keys");
  const s = surveys.more;
  const { tab, context, errors } = await open(browser, { survey: s, who, viewport: narrow, gesture: "key", params: { lang: "ar" } });
  await heading(tab, "How do you rate each?");
  const press = async (...keys) => {
    for (const k of keys) await tab.keyboard.press(k);
  };
  // The focus is in the survey: Tab reaches the first row's radios; arrows choose within a row.
  const focused = () => tab.evaluate(() => {
    const el = document.querySelector("svc-survey").shadowRoot.activeElement;
    return el ? el.getAttribute("aria-label") || el.labels?.[0]?.textContent || el.textContent : null;
  });
  // tabTo presses Tab until the control named name has the focus, at most 20 times.
  const tabTo = async (name) => {
    for (let i = 0; i < 20; i++) {
      if ((await focused()) === name) return;
      await press("Tab");
    }
    throw new Error(`Tab never reached ${name}; the focus is on ${await focused()}`);
  };
  await tabTo("Bad");
  // Right to left, the next radio is to the left.
  await press("Space", "Tab", "ArrowLeft", "ArrowLeft"); // speed: bad; price: good
  // Back and forth to the button: Tab past the close button would leave the rows.
  await tabTo("Next");
  await press("Enter");
  await heading(tab, "Rank these features");
  await saved(s, who, { grid: { price: "good", speed: "bad" } });

  // The survey's Arabic translation names option c; the widget's own words are Arabic too.
  assert.deepEqual(await tab.getByRole("listitem").allTextContents(), ["1.Alerts↑↓", "2.Boards↑↓", "3.الرسوم البيانية↑↓"]);
  await tabTo("تحريك Boards للأعلى");
  await press("Enter"); // Boards up: b, a, c; the focus stays on Boards's button, now disabled: its other one
  await tab.getByRole("status").filter({ hasText: "Boards: المرتبة 1 من 3" }).waitFor();
  assert.equal(await focused(), "تحريك Boards للأسفل");
  await tabTo("Next");
  await press("Enter");
  await heading(tab, "When did you start?");

  // The focus starts on the date field, the question's first control.
  assert.equal(await tab.evaluate(() => document.querySelector("svc-survey").shadowRoot.activeElement?.type), "date");
  await tab.keyboard.type("07042026"); // Chromium's date field, in the page's en-US order
  await press("Enter");
  await heading(tab, "Terms");
  await saved(s, who, { when: "2026-07-04" });

  await tabTo("I agree to the terms");
  await press("Space", "Enter");
  await heading(tab, "How do we reach you?");
  // The contact form's words are the widget's Arabic ones, and the survey, translated into
  // Arabic, is laid out right to left.
  assert.equal(await tab.locator("svc-survey").evaluate((h) => h.shadowRoot.querySelector(".box").getAttribute("dir")), "rtl");
  await tab.getByRole("textbox", { name: "البريد الإلكتروني *" }).focus();
  await tab.keyboard.type("sam@example.org");
  await press("Enter");
  await heading(tab, "Was this useful?");

  await tabTo("عدم إعجاب"); // "Thumbs down", in the widget's Arabic
  await press("Space");
  assert.equal(await tab.getByRole("button", { name: "عدم إعجاب" }).getAttribute("aria-pressed"), "true");
  await tabTo("Next");
  await press("Enter");
  await heading(tab, "How easy was it?");
  await press("Enter"); // optional: passed empty
  await heading(tab, "Talk to us");
  await tabTo("Not now");
  await press("Enter");
  await heading(tab, "Thanks!");
  const r = await saved(s, who, { agree: true, reach: { email: "sam@example.org" }, thumb: 1, act: "dismissed", order: ["b", "a", "c"] }, true);
  assert.equal("effort" in r.data, false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a survey without the rarer types does not load questions.js", async () => {
  const { tab, context } = await open(browser, { survey: surveys.short, who: respondent("more-none") });
  await heading(tab, "How is your day?");
  await tab.getByRole("radio", { name: "3" }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await heading(tab, "Which plan are you on?");
  assert.equal(await loadedQuestions(tab), false);
  await context.close();
});
