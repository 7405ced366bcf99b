// The console's editor with its script (widget/src/editor): buttons and type changes in place,
// without navigating, the focus on or beside what changed; the preview beside the form, following
// it as it is typed without a request; asking before unsaved changes are left and before a
// question with answers is removed or retyped; by keyboard alone; accessible.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { axeViolations, base, eventually, launch, pk, sk } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

let made = 0;
// survey makes an active survey over the management API: a single choice and an open question.
async function survey(title) {
  made += 1;
  const res = await fetch(`${base}/v1/protected/surveys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" },
    body: JSON.stringify({
      title: `${title} ${made}`, status: "active",
      questions: [
        { id: "area", title: "Which part do you use most?", properties: { type: "single-select", options: [{ value: "Reports" }, { value: "Alerts" }, { value: "Exports" }] } },
        { id: "why", title: "Why?", properties: { type: "open-ended" } },
      ],
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

// answer records a response to the survey through the public API, as the widget does.
async function answer(id, data) {
  const res = await fetch(`${base}/v1/svc/${id}/response/${crypto.randomUUID()}`, {
    method: "PUT",
    headers: { "x-svc-pk": pk, "content-type": "application/json" },
    body: JSON.stringify({ respondent: crypto.randomUUID(), data, metadata: {} }),
  });
  assert.equal(res.status, 200, await res.clone().text());
}

// editor opens a survey's editor in a new tab, and returns the tab with what it recorded: the
// page's errors (a policy's refusals among them), its navigations after opening, and the
// requests it made.
async function editor(id, viewport = { width: 1280, height: 900 }, bypassCSP = false) {
  const context = await browser.newContext({ viewport, bypassCSP });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const seen = { errors: [], navigations: [], requests: [] };
  tab.on("pageerror", (e) => seen.errors.push(String(e)));
  // A page the server answers 422 (a save that asks first) is a console error too: not one here.
  tab.on("console", (m) => m.type() === "error" && !/status of 422/.test(m.text()) && seen.errors.push(m.text()));
  if (process.env.SVC_E2E_DEBUG) {
    tab.on("console", (m) => console.error("console:", m.text()));
    tab.on("pageerror", (e) => console.error("pageerror:", e));
    tab.on("response", async (r) => console.error("reply:", r.request().method(), r.url(), r.status()));
  }
  await tab.goto(`${base}/console/surveys/${id}/edit`);
  await tab.getByRole("heading", { name: "Edit survey", level: 1 }).waitFor();
  tab.on("framenavigated", (f) => f === tab.mainFrame() && seen.navigations.push(f.url()));
  tab.on("request", (r) => seen.requests.push(`${r.method()} ${r.url()}`));
  return { context, tab, seen };
}

const focused = async (locator) => {
  if (await locator.evaluate((el) => el === document.activeElement)) return true;
  console.error("focused instead:", await locator.page().evaluate(() => document.activeElement?.outerHTML.slice(0, 200)));
  return false;
};
const question = (tab, n) => tab.getByRole("group", { name: `Question ${n}`, exact: true });
const optionBox = (q, n) => q.getByRole("group", { name: `Option ${n}`, exact: true }).getByRole("textbox", { name: "Option", exact: true });

async function accessible(tab, what) {
  const violations = await axeViolations(tab);
  assert.deepEqual(violations, [], what);
}

test("editor: a type changed, options and a question added and removed, in place, the focus kept", async () => {
  const s = await survey("In place");
  const { context, tab, seen } = await editor(s.id);
  const first = question(tab, 1);
  // Multiple choice at once: its own field shows, the options stay, the focus stays on the type.
  const type = first.getByRole("combobox", { name: "Question type" });
  await type.selectOption({ label: "Multiple choice" });
  await first.getByRole("textbox", { name: "Most choices (empty: any)" }).waitFor();
  assert.deepEqual(await Promise.all([1, 2, 3].map((n) => optionBox(first, n).inputValue())), ["Reports", "Alerts", "Exports"]);
  assert.ok(await focused(type), `the focus stays on the question's type ${seen.errors}`);

  // An option added: the focus on its textbox, typed into at once.
  await first.getByRole("button", { name: "Add option" }).click();
  assert.ok(await focused(optionBox(first, 4)), "the focus is on the new option");
  await tab.keyboard.type("Billing");
  // An option removed: the focus on the one now in its place.
  await first.getByRole("group", { name: "Option 2", exact: true }).getByRole("button", { name: "Remove option" }).click();
  await tab.getByRole("status").getByText("Option 2 (“Alerts”) of question 1 removed: save to keep the change.").waitFor();
  assert.deepEqual(await Promise.all([1, 2, 3].map((n) => optionBox(first, n).inputValue())), ["Reports", "Exports", "Billing"]);
  assert.ok(await focused(optionBox(first, 2)), "the focus is on the option that took the removed one's place");

  // A question added: the focus on its title, and the server's notice in the live region.
  await tab.getByRole("button", { name: "Add question" }).click();
  await tab.getByRole("status").getByText("Question 3 added: give it a title, and save to keep it.").waitFor();
  assert.ok(await focused(question(tab, 3).getByRole("textbox", { name: "Question title" })), "the focus is on the new question's title");
  await tab.keyboard.type("Anything else?");
  // Moved up: the focus follows it, on its Move up.
  await question(tab, 3).getByRole("button", { name: "Move up" }).click();
  await eventually(async () => assert.equal(await question(tab, 2).getByRole("textbox", { name: "Question title" }).inputValue(), "Anything else?"));
  assert.ok(await focused(question(tab, 2).getByRole("button", { name: "Move up" })), "the focus follows the question moved");

  assert.deepEqual(seen.navigations, [], "nothing navigated");
  assert.ok(seen.requests.every((r) => r.startsWith(`POST ${base}/console/surveys/${s.id}/edit`)), `only the form's posts: ${seen.requests}`);
  // Saved: the survey is what the form showed.
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  const stored = await (await fetch(`${base}/v1/protected/surveys/${s.id}`, { headers: { Authorization: `Bearer ${sk}` } })).json();
  assert.deepEqual(stored.questions.map((q) => [q.title, q.properties.type]),
    [["Which part do you use most?", "multi-select"], ["Anything else?", "open-ended"], ["Why?", "open-ended"]]);
  assert.deepEqual(stored.questions[0].properties.options.map((o) => o.value), ["Reports", "Exports", "Billing"]);
  assert.deepEqual(seen.errors, []);
  await context.close();
});

test("editor: the preview beside the form at 1,280 px, below it at 320 px, following what is typed without a request", async () => {
  const s = await survey("Seen beside");
  for (const width of [1280, 320]) {
    const { context, tab, seen } = await editor(s.id, { width, height: 800 });
    const form = await tab.getByRole("form", { name: "Survey" }).boundingBox();
    const preview = tab.getByRole("region", { name: "Preview", exact: true });
    await preview.getByRole("region", { name: s.title }).waitFor(); // shown from the start
    const box = await preview.boundingBox();
    if (width === 1280) {
      assert.ok(box.x >= form.x + form.width && box.y < form.y + 200, `beside the form: ${JSON.stringify({ form, box })}`);
    } else {
      assert.ok(box.y >= form.y + form.height && box.x + box.width <= 320, `below the form: ${JSON.stringify({ form, box })}`);
      assert.ok(await tab.evaluate(() => document.documentElement.scrollWidth <= 320), "the page scrolls sideways");
    }
    await tab.getByRole("textbox", { name: "Survey title" }).fill("Typed, not sent");
    await preview.getByRole("region", { name: "Typed, not sent" }).waitFor();
    await question(tab, 1).getByRole("textbox", { name: "Question title" }).fill("Which part, typed?");
    await preview.getByText("Which part, typed?").waitFor();
    await optionBox(question(tab, 1), 2).fill("Alarms");
    await preview.getByText("Alarms").waitFor();
    assert.deepEqual(seen.requests, [], "typing made no request");
    assert.deepEqual(seen.errors, []);
    // Leaving is asked first now; closing the context runs no prompt.
    await context.close();
  }
});

test("editor: leaving unsaved changes asks first; leaving after Save does not", async () => {
  const s = await survey("Leaving");
  const { context, tab } = await editor(s.id);
  const dialogs = [];
  tab.on("dialog", (d) => {
    dialogs.push(d.type());
    void d.dismiss(); // stay on the page
  });
  // Nothing changed: leaving and coming back asks nothing.
  await tab.getByRole("link", { name: "All surveys" }).click();
  await tab.getByRole("heading", { name: "Surveys", level: 1 }).waitFor();
  assert.deepEqual(dialogs, []);
  await tab.goBack();
  await tab.getByRole("textbox", { name: "Survey title" }).fill("Changed, not saved");
  await tab.getByRole("link", { name: "All surveys" }).click({ noWaitAfter: true });
  await eventually(() => assert.deepEqual(dialogs, ["beforeunload"], "leaving unsaved changes asks first"));
  assert.match(tab.url(), /\/edit$/, "and stays when the person says so");
  // A change in place is unsaved too; Save then leaves without asking.
  await tab.getByRole("button", { name: "Add question" }).click();
  await question(tab, 3).waitFor();
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  await tab.getByRole("link", { name: "All surveys" }).click();
  await tab.getByRole("heading", { name: "Surveys", level: 1 }).waitFor();
  assert.deepEqual(dialogs, ["beforeunload"], "no question after saving");
  await context.close();
});

test("editor: removing or retyping a question that has answers asks first, saying how many, by keyboard", async () => {
  const s = await survey("Answered");
  await answer(s.id, { area: "Reports" });
  await answer(s.id, { area: "Alerts", why: "Speed" });
  const { context, tab, seen } = await editor(s.id, undefined, true); // for axe's script
  const first = question(tab, 1);
  // Remove question, by keyboard: a dialog named by its question, the safe answer focused.
  await first.getByRole("button", { name: "Remove question" }).focus();
  await tab.keyboard.press("Enter");
  const dialog = tab.getByRole("dialog", { name: "“Which part do you use most?” has 2 answers. Remove it?" });
  await dialog.waitFor();
  assert.ok(await focused(dialog.getByRole("button", { name: "Keep it" })), "the focus moves into the dialog");
  await accessible(tab, "the editor asking first");
  await tab.keyboard.press("Escape"); // cancels: kept, the focus back on the button
  await dialog.waitFor({ state: "detached" });
  assert.ok(await focused(first.getByRole("button", { name: "Remove question" })), "the focus returns to Remove question");
  assert.equal(await first.getByRole("textbox", { name: "Question title" }).inputValue(), "Which part do you use most?");

  // Its type: asked, kept with Keep it.
  const type = first.getByRole("combobox", { name: "Question type" });
  await type.selectOption({ label: "Rating" });
  const retype = tab.getByRole("dialog", { name: "“Which part do you use most?” has 2 answers. Make it rating?" });
  await retype.getByRole("button", { name: "Keep it" }).click();
  await retype.waitFor({ state: "detached" });
  assert.equal(await type.inputValue(), "single-select", "the type is as it was");
  await first.getByRole("group", { name: "Options", exact: true }).waitFor();

  // A question with answers, removed when the person says so, by keyboard.
  await first.getByRole("button", { name: "Remove question" }).focus();
  await tab.keyboard.press("Enter");
  await dialog.waitFor();
  await tab.keyboard.press("Tab"); // from Keep it to Remove question
  assert.ok(await focused(dialog.getByRole("button", { name: "Remove question" })));
  await tab.keyboard.press("Enter");
  await tab.getByRole("status").getByText("Question 1 (“Which part do you use most?”) removed: save to keep the change.").waitFor();
  assert.equal(await question(tab, 2).count(), 0);
  assert.ok(await focused(question(tab, 1).getByRole("textbox", { name: "Question title" })), "the focus is on the question now first");
  // The other question's answer: one.
  await question(tab, 1).getByRole("button", { name: "Remove question" }).click();
  await tab.getByRole("dialog", { name: "“Why?” has 1 answer. Remove it?" }).getByRole("button", { name: "Keep it" }).click();

  // Asked once: Save does not ask again.
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  const stored = await (await fetch(`${base}/v1/protected/surveys/${s.id}`, { headers: { Authorization: `Bearer ${sk}` } })).json();
  assert.deepEqual(stored.questions.map((q) => q.id), ["why"]);
  assert.deepEqual(seen.errors, []);
  await context.close();
});

test("editor: by keyboard alone, a question added, titled and retyped; accessible with the preview, light and dark", async () => {
  const s = await survey("Keyboard");
  for (const colorScheme of ["light", "dark"]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme, bypassCSP: true });
    const tab = await context.newPage();
    await tab.goto(`${base}/console/surveys/${s.id}/edit`);
    await tab.getByRole("region", { name: "Preview", exact: true }).getByRole("region", { name: s.title }).waitFor();
    await accessible(tab, `the editor with its preview (${colorScheme})`);
    await context.close();
  }
  const { context, tab, seen } = await editor(s.id, undefined, true); // for axe's script
  await tab.getByRole("button", { name: "Add question" }).focus();
  await tab.keyboard.press("Enter");
  const third = question(tab, 3);
  const title = third.getByRole("textbox", { name: "Question title" });
  await third.waitFor();
  assert.ok(await focused(title));
  await tab.keyboard.type("How many seats?");
  await tab.keyboard.press("Tab"); // its description
  await tab.keyboard.press("Tab"); // its type
  const type = third.getByRole("combobox", { name: "Question type" });
  assert.ok(await focused(type));
  await tab.keyboard.press("Home"); // Rating, the first type
  await third.getByRole("spinbutton", { name: "Scale, from 2 to 10" }).waitFor();
  assert.equal(await type.inputValue(), "rating");
  assert.ok(await focused(type), "the focus stays on the type");
  assert.equal(await title.inputValue(), "How many seats?");
  await accessible(tab, "the editor after changes in place");
  assert.deepEqual(seen.navigations, []);
  assert.deepEqual(seen.errors, []);
  await context.close();
});
