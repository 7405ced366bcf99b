// The console (svc.NewConsole): a survey made from a template, published, paused and deleted by
// roles and names, as a product person would, and found served, or not, by the public API.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { axeViolations, base, launch, pk, sk, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

// fromTemplate makes a survey from a template in the console's list, as a person does, and
// returns its id once its editor is open.
async function fromTemplate(tab, template) {
  await tab.goto(`${base}/console/`);
  const form = tab.getByRole("form", { name: "New survey" });
  await form.getByRole("combobox", { name: "Template" }).selectOption({ label: template });
  await form.getByRole("button", { name: "New survey" }).click();
  await tab.getByRole("heading", { name: "Edit survey", level: 1 }).waitFor();
  return new URL(tab.url()).pathname.split("/").at(-2);
}

const served = async (id) => (await fetch(`${base}/v1/svc/${id}`, { headers: { "x-svc-pk": pk } })).status;

test("a survey from a template, published, paused and deleted in the console", async () => {
  const context = await browser.newContext();
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  // The new survey opens in the editor: retitled, a question added, made a single choice.
  const id = await fromTemplate(tab, "Net Promoter Score");
  assert.equal(await served(id), 404, "a new survey waits to be published");
  await tab.getByRole("textbox", { name: "Survey title" }).fill("Our NPS, with plans");
  await tab.getByRole("button", { name: "Add question" }).click();
  const third = tab.getByRole("group", { name: "Question 3" });
  await third.getByRole("textbox", { name: "Question title" }).fill("Which plan are you on?");
  await third.getByRole("combobox", { name: "Question type" }).selectOption({ label: "Single choice" });
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  // Saved as a single choice, it has the type's two options, a row each: renamed.
  const options = tab.getByRole("group", { name: "Question 3" }).getByRole("group", { name: "Options", exact: true });
  await options.getByRole("group", { name: "Option 1", exact: true }).getByRole("textbox", { name: "Option", exact: true }).fill("Free");
  await options.getByRole("group", { name: "Option 2", exact: true }).getByRole("textbox", { name: "Option", exact: true }).fill("Pro");
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  // A question moved up is saved in its new place.
  await tab.getByRole("group", { name: "Question 3" }).getByRole("button", { name: "Move up" }).click();
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();

  // The preview: the real widget, inline beside the form, under the page's policy, sending nothing.
  const calls = [];
  tab.on("request", (req) => req.url().includes("/v1/svc/") && calls.push(req.url()));
  await tab.getByRole("button", { name: "Preview" }).click();
  const preview = tab.getByRole("region", { name: "Preview" });
  await preview.getByRole("region", { name: "Our NPS, with plans" }).waitFor();
  await preview.getByRole("radio", { name: "9" }).first().click();
  await preview.getByRole("button", { name: "Next" }).click();
  await preview.getByRole("radio", { name: "Pro" }).check();
  await preview.getByRole("button", { name: "Next" }).click();
  await preview.getByRole("textbox").first().waitFor(); // the open question after the plans
  assert.deepEqual(calls, [], "the preview sent nothing");

  await tab.getByRole("link", { name: "All surveys" }).click();
  const item = () => tab.getByRole("row").filter({ has: tab.getByRole("link", { name: "Our NPS, with plans" }) }).first();
  await item().getByRole("button", { name: "Publish" }).click();
  await item().getByRole("button", { name: "Pause" }).waitFor();
  assert.equal(await served(id), 200, "published, the public API serves it");
  const publicView = await (await fetch(`${base}/v1/svc/${id}`, { headers: { "x-svc-pk": pk } })).json();
  assert.equal(publicView.title, "Our NPS, with plans");
  assert.deepEqual(publicView.questions.map((q) => q.title), ["How likely are you to recommend us to a friend or colleague?", "Which plan are you on?", "What is the main reason for your score?"]);
  assert.deepEqual(publicView.questions[1].properties.options.map((o) => o.value), ["Free", "Pro"]);
  await item().getByRole("button", { name: "Pause" }).click();
  await item().getByRole("button", { name: "Publish" }).waitFor();
  assert.equal(await served(id), 404, "paused, it is not served");

  await item().getByRole("link", { name: "Delete" }).click();
  await tab.getByRole("button", { name: "Delete survey" }).click();
  await tab.getByRole("heading", { name: "Surveys", level: 1 }).waitFor();
  assert.equal(await tab.getByRole("link", { name: "Our NPS, with plans" }).count(), 0);
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("the console's list and editor are accessible and fit 320 px, light and dark", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 640 }, colorScheme });
    const tab = await context.newPage();
    for (const path of ["/console/", `/console/surveys/${surveys.demo.id}/edit`, `/console/surveys/${surveys.langs.id}/translations`,
      `/console/surveys/${surveys.langs.id}/translations/ar`]) {
      await tab.goto(base + path);
      const violations = await axeViolations(tab);
      assert.deepEqual(violations, [], `${path} (${colorScheme})`);
      const width = await tab.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `${path} scrolls sideways: ${width}`);
    }
    await context.close();
  }
});

test("Enter in a field of the editor saves, and moves no question", async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${base}/console/surveys/${surveys.short.id}/edit`);
  const before = await tab.getByRole("textbox", { name: "Question title" }).first().inputValue();
  await tab.getByRole("textbox", { name: "Survey title" }).press("Enter");
  await tab.getByRole("status").getByText("Saved.").waitFor();
  assert.equal(await tab.getByRole("textbox", { name: "Question title" }).first().inputValue(), before);
  await context.close();
});

test("a language added and translated in the console, by roles and keyboard, reaches the widget", async () => {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  const tab = await context.newPage();
  await tab.goto(`${base}/console/surveys/${surveys.langs.id}/edit`);
  await tab.getByRole("link", { name: "Translations" }).click();
  await tab.getByRole("textbox", { name: "Language to add" }).fill("fr");
  await tab.keyboard.press("Enter");
  await tab.getByRole("heading", { name: "Translation into fr" }).waitFor();
  const title = tab.getByRole("textbox", { name: "Survey title" });
  assert.equal(await title.getAttribute("lang"), "fr");
  await title.fill("Comment s’est passée votre visite ?");
  await tab.getByRole("group", { name: /^Question 1:/ }).getByRole("textbox", { name: "Option “Reports”" }).fill("Rapports");
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").filter({ hasText: "Saved." }).waitFor();
  const res = await fetch(`${base}/v1/svc/${surveys.langs.id}?lang=fr-CA`, { headers: { "x-svc-pk": pk } });
  const view = await res.json();
  assert.equal(view.language, "fr");
  assert.equal(view.title, "Comment s’est passée votre visite ?");
  assert.deepEqual(view.questions[0].properties.options[0], { value: "Reports", label: "Rapports" });
  await context.close();
});

test("a targeted survey: a routing rule and a display rule added in the console, published, picked by svc", async () => {
  const context = await browser.newContext({ viewport: { width: 320, height: 700 } });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const id = await fromTemplate(tab, "Net Promoter Score");
  await tab.getByRole("textbox", { name: "Survey title" }).fill("Docs poll");
  // After the score: a promoter (at least 9) is done at once.
  const first = tab.getByRole("group", { name: "Question 1" });
  await first.getByRole("button", { name: "Add routing rule" }).click();
  const rule = tab.getByRole("group", { name: "Question 1" }).getByRole("group", { name: /^Rule 1/ });
  await rule.getByRole("combobox", { name: "Operator", exact: true }).selectOption({ label: "is at least" });
  await rule.getByRole("combobox", { name: "Value", exact: true }).selectOption({ label: "9" });
  await rule.getByRole("combobox", { name: "Go to" }).selectOption({ label: "The end of the survey" });
  // Shown by svc on the docs pages, to people on the pro plan, once.
  const who = tab.getByRole("group", { name: "Who sees it, and when" });
  await who.getByRole("checkbox", { name: /svc shows it by itself/ }).check();
  await who.getByRole("button", { name: "Add page rule", exact: true }).click();
  const page = who.getByRole("group", { name: "Page rule 1", exact: true });
  await page.getByRole("combobox", { name: "Match", exact: true }).selectOption({ label: "starts with" });
  await page.getByRole("textbox", { name: "Page", exact: true }).fill("/docs-e2e");
  await who.getByRole("button", { name: "Add attribute rule", exact: true }).click();
  const person = who.getByRole("group", { name: "Attribute rule 1", exact: true });
  await person.getByRole("textbox", { name: "Attribute", exact: true }).fill("plan");
  await person.getByRole("combobox", { name: "Operator", exact: true }).selectOption({ label: "is" });
  await person.getByRole("textbox", { name: "Value", exact: true }).fill("pro");
  await who.getByRole("combobox", { name: "Ask the same person" }).selectOption({ label: "Once" });
  assert.ok((await tab.evaluate(() => document.documentElement.scrollWidth)) <= 320, "the editor scrolls sideways");
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  assert.equal(await tab.getByRole("group", { name: "Question 1" }).getByRole("combobox", { name: "Value", exact: true }).inputValue(), "9");

  await tab.getByRole("link", { name: "All surveys" }).click();
  const item = tab.getByRole("row").filter({ has: tab.getByRole("link", { name: "Docs poll" }) }).first();
  await item.getByRole("button", { name: "Publish" }).click();
  await item.getByRole("button", { name: "Pause" }).waitFor();

  const ask = async (url, attributes) => {
    const res = await fetch(`${base}/v1/svc/next-survey`, {
      method: "POST", headers: { "x-svc-pk": pk, "content-type": "application/json" },
      body: JSON.stringify({ respondent: `docs-${Date.now()}-${Math.random()}`, url, attributes }),
    });
    return (await res.json()).survey?.id ?? null;
  };
  assert.equal(await ask("https://app.example.com/docs-e2e/start", { plan: "pro" }), id, "picked on a docs page for a pro");
  assert.notEqual(await ask("https://app.example.com/docs-e2e/start", { plan: "free" }), id, "not for the free plan");
  assert.notEqual(await ask("https://app.example.com/billing", { plan: "pro" }), id, "not off the docs pages");
  const view = await (await fetch(`${base}/v1/svc/${id}`, { headers: { "x-svc-pk": pk } })).json();
  assert.deepEqual(view.questions[0].routingLogic.cases[0].target, { type: "end" });
  await item.getByRole("button", { name: "Pause" }).click();
  await item.getByRole("button", { name: "Publish" }).waitFor();
  await context.close();
});

// tabTo presses Tab until the focused control is the one named (its label, aria-label or text),
// within an element holding text when given: what a person with a keyboard alone does.
async function tabTo(tab, name, within) {
  for (let i = 0; i < 600; i++) {
    await tab.keyboard.press("Tab");
    const found = await tab.evaluate(([name, within]) => {
      const el = document.activeElement;
      if (!el) return false;
      const label = (el.labels?.[0]?.textContent ?? el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
      const named = label === name || (el.tagName === "SELECT" && label.startsWith(name));
      return named && (!within || el.closest("li, tr")?.textContent.includes(within));
    }, [name, within]);
    if (found) return;
  }
  throw new Error(`Tab never reaches ${name}`);
}

test("by keyboard alone: a survey made, titled, saved and published", async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${base}/console/`);
  await tabTo(tab, "Template");
  await tab.keyboard.press("ArrowDown"); // from Blank to the next template
  await tabTo(tab, "New survey");
  await tab.keyboard.press("Enter");
  await tab.getByRole("heading", { name: "Edit survey", level: 1 }).waitFor();
  const id = new URL(tab.url()).pathname.split("/").at(-2);
  await tabTo(tab, "Survey title");
  await tab.keyboard.press("ControlOrMeta+a");
  await tab.keyboard.type("Keyboard poll");
  await tabTo(tab, "Save");
  await tab.keyboard.press("Enter");
  await tab.getByRole("status").getByText("Saved.").waitFor();
  await tabTo(tab, "All surveys");
  await tab.keyboard.press("Enter");
  await tab.getByRole("heading", { name: "Surveys", level: 1 }).waitFor();
  await tabTo(tab, "Publish", "Keyboard poll");
  await tab.keyboard.press("Enter");
  await tab.getByRole("row").filter({ hasText: "Keyboard poll" }).getByRole("button", { name: "Pause" }).waitFor();
  assert.equal(await served(id), 200);
  const view = await (await fetch(`${base}/v1/svc/${id}`, { headers: { "x-svc-pk": pk } })).json();
  assert.equal(view.title, "Keyboard poll");
  await context.close();
});

test("the console refuses what would break a survey: an invalid rule, a stale save, another site's post", async () => {
  const api = (method, path, body) =>
    fetch(`${base}/v1/protected/surveys${path}`, {
      method, headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" }, body: body && JSON.stringify(body),
    });
  const created = await (await api("POST", "", { title: "Guarded survey", status: "active", questions: [
    { id: "q1", title: "How was it?", properties: { type: "rating", scale: 5 } }] })).json();
  const id = created.id;
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${base}/console/surveys/${id}/edit`);

  // An invalid rule: the server's message beside the rules, nothing saved.
  const who = tab.getByRole("group", { name: "Who sees it, and when" });
  await who.getByRole("checkbox", { name: /svc shows it by itself/ }).check();
  await who.getByRole("textbox", { name: "Share of people who may see it, in per cent" }).fill("500");
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("alert").getByText("The display rules cannot be saved as they are: see beside them.").waitFor();
  await who.getByText(/percentage/).waitFor();
  assert.equal((await (await api("GET", `/${id}`)).json()).display, undefined, "nothing was saved");

  // Changed meanwhile through the API: the console's save does not overwrite it.
  await tab.goto(`${base}/console/surveys/${id}/edit`);
  assert.equal((await api("PATCH", `/${id}`, { title: "Changed elsewhere" })).status, 200);
  await tab.getByRole("textbox", { name: "Survey title" }).fill("Changed in the console");
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("alert").getByText(/Someone changed this survey since you opened it/).waitFor();
  assert.equal((await (await api("GET", `/${id}`)).json()).title, "Changed elsewhere");

  // Another site's page posts the console's own form, token and all: refused, nothing changed.
  await tab.goto(`${base}/console/`);
  const token = await tab.locator('input[name="csrf"]').first().getAttribute("value");
  await tab.goto(`${process.env.SVC_E2E_OTHER_ORIGIN}/test/page.html`);
  const [reply] = await Promise.all([
    tab.waitForResponse((r) => r.url().endsWith(`/console/surveys/${id}/status`)),
    tab.evaluate(([action, token]) => {
      const f = Object.assign(document.createElement("form"), { method: "post", action });
      for (const [name, value] of [["csrf", token], ["status", "inactive"]]) f.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
      document.body.append(f);
      f.submit();
    }, [`${base}/console/surveys/${id}/status`, token]),
  ]);
  assert.equal(reply.status(), 403);
  assert.equal((await (await api("GET", `/${id}`)).json()).status, "active", "another site's post changed nothing");
  await api("DELETE", `/${id}`);
  await context.close();
});

// manage calls the management API with the fixture's secret key.
const manage = (method, path, body) =>
  fetch(`${base}/v1/protected/surveys${path}`, {
    method, headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" }, body: body && JSON.stringify(body),
  });

// copyOfDemo makes a paused copy of the demo survey (every question type), its NPS question
// without routing, for a test to change without touching the survey the other tests answer.
async function copyOfDemo(title) {
  const { id, status, ...definition } = surveys.demo;
  const questions = definition.questions.map((q) => (q.id === "nps" ? { ...q, routingLogic: { type: "always", target: { type: "next" } } } : q));
  const res = await manage("POST", "", { ...definition, title, status: "inactive", questions });
  assert.ok(res.ok, `copy of the demo survey: ${res.status} ${await res.clone().text()}`);
  return (await res.json()).id;
}

// tabToIn presses Tab until the focused control is the one named (its label or text) inside the
// group (a fieldset) named group: what a person with a keyboard alone does.
async function tabToIn(tab, name, group) {
  for (let i = 0; i < 800; i++) {
    await tab.keyboard.press("Tab");
    const found = await tab.evaluate(([name, group]) => {
      const el = document.activeElement;
      if (!el || el === document.body) return false;
      const label = (el.labels?.[0]?.textContent ?? el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
      if (typeof name === "string" ? label !== name : !label.startsWith(name.prefix)) return false;
      for (let f = el.closest("fieldset"); f; f = f.parentElement?.closest("fieldset")) {
        if (f.querySelector(":scope > legend")?.textContent.trim() === group) return true;
      }
      return !group;
    }, [name, group]);
    if (found) return;
  }
  throw new Error(`Tab never reaches ${JSON.stringify(name)} in ${group}`);
}

// focusedOn waits until the focused control is the form field named name (its name attribute).
const focusedOn = (tab, name) => tab.waitForFunction((name) => document.activeElement?.getAttribute("name") === name, name);

// press presses a key n times.
async function press(tab, key, n) {
  for (let i = 0; i < n; i++) await tab.keyboard.press(key);
}

test("by keyboard alone: a routing rule on the NPS question and a page rule, saved and read back; a single choice's operators", async () => {
  const id = await copyOfDemo("Keyboard routing");
  const context = await browser.newContext();
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await tab.goto(`${base}/console/surveys/${id}/edit`);

  // "If the answer is at most 6, go to question 4": Add routing rule puts the focus on the new
  // rule's Operator, and arrow keys choose in each select.
  await tabToIn(tab, "Add routing rule", "Question 1");
  await tab.keyboard.press("Enter");
  await focusedOn(tab, "q0.r0.op");
  const rule = tab.getByRole("group", { name: "Question 1", exact: true }).getByRole("group", { name: /^Rule 1/ });
  const operator = rule.getByRole("combobox", { name: "Operator", exact: true });
  assert.deepEqual(await operator.locator("option").allTextContents(), ["is", "is not", "is more than", "is at least", "is less than", "is at most"]);
  await press(tab, "ArrowDown", 5);
  assert.equal(await operator.inputValue(), "less-or-equal");
  await tab.keyboard.press("Tab");
  await focusedOn(tab, "q0.r0.value");
  const value = rule.getByRole("combobox", { name: "Value", exact: true });
  assert.deepEqual(await value.locator("option").allTextContents(), ["Choose…", ...Array.from({ length: 11 }, (_, n) => String(n))]);
  await press(tab, "ArrowDown", 7);
  assert.equal(await value.inputValue(), "6");
  await tab.keyboard.press("Tab");
  await focusedOn(tab, "q0.r0.to");
  await press(tab, "ArrowDown", 4);
  assert.equal(await rule.getByRole("combobox", { name: "Go to" }).inputValue(), "q:missing");

  // Shown by svc on the pages that start with /docs: Add page rule puts the focus on its Match.
  await tabToIn(tab, { prefix: "svc shows it by itself" }, "Who sees it, and when");
  await tab.keyboard.press("Space");
  await tabToIn(tab, "Add page rule", "Who sees it, and when");
  await tab.keyboard.press("Enter");
  await focusedOn(tab, "d.p0.op");
  const pageRule = tab.getByRole("group", { name: "Page rule 1", exact: true });
  assert.equal(await pageRule.getByRole("combobox", { name: "Match", exact: true }).inputValue(), "prefix", "a new page rule starts with “starts with”");
  await tab.keyboard.press("Tab");
  await focusedOn(tab, "d.p0.value");
  await tab.keyboard.type("/docs");
  // The rule typed before the page came back is still there.
  assert.equal(await rule.getByRole("combobox", { name: "Value", exact: true }).inputValue(), "6");
  await tabToIn(tab, "Save");
  await tab.keyboard.press("Enter");
  await tab.getByRole("status").getByText("Saved.").waitFor();

  const saved = await (await manage("GET", `/${id}`)).json();
  assert.deepEqual(saved.questions[0].routingLogic, {
    type: "switch", cases: [{ type: "binary-operator", operator: "less-or-equal", value: { type: "value", value: 6 }, target: { type: "jump", target: 3 } }],
    default: { type: "next" },
  });
  assert.deepEqual(saved.display.urls, [{ match: "prefix", value: "/docs" }]);

  // A single choice's rule offers "is" and "is not" only, and its options as values.
  await tabToIn(tab, "Add routing rule", "Question 3");
  await tab.keyboard.press("Enter");
  await focusedOn(tab, "q2.r0.op");
  const choice = tab.getByRole("group", { name: "Question 3", exact: true }).getByRole("group", { name: /^Rule 1/ });
  assert.deepEqual(await choice.getByRole("combobox", { name: "Operator", exact: true }).locator("option").allTextContents(), ["is", "is not"]);
  assert.deepEqual(await choice.getByRole("combobox", { name: "Value", exact: true }).locator("option").allTextContents(), ["Choose…", "Reports", "Alerts", "Exports"]);
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();

  // The editor with every kind of row is accessible and fits 320 px.
  const narrow = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 640 } });
  narrow.setDefaultTimeout(5000);
  const page = await narrow.newPage();
  await page.goto(`${base}/console/surveys/${id}/edit`);
  const who = page.getByRole("group", { name: "Who sees it, and when" });
  for (const [add, row] of [["Add excluded page rule", "Excluded page rule 1"], ["Add attribute rule", "Attribute rule 1"], ["Add event", "Event 1"]]) {
    await who.getByRole("button", { name: add, exact: true }).click();
    await who.getByRole("group", { name: row, exact: true }).waitFor();
  }
  await page.getByRole("group", { name: "Question 4", exact: true }).getByRole("button", { name: "Add routing rule" }).click();
  await page.getByRole("group", { name: "Question 4", exact: true }).getByRole("group", { name: /^Rule 1/ }).waitFor();
  const violations = await axeViolations(page);
  assert.deepEqual(violations, []);
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 320, "the editor's rows scroll sideways");
  await narrow.close();
  await manage("DELETE", `/${id}`);
});

test("the editor's times are in the browser's time zone, named beside them, and stored in UTC", async () => {
  const id = await copyOfDemo("Times in Paris");
  const context = await browser.newContext({ timezoneId: "Europe/Paris" });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await tab.goto(`${base}/console/surveys/${id}/edit`);
  const who = tab.getByRole("group", { name: "Who sees it, and when" });
  await who.getByRole("checkbox", { name: /svc shows it by itself/ }).check();
  const from = who.getByLabel("From", { exact: true });
  const until = who.getByLabel("Until", { exact: true });
  await from.fill("2026-12-01T10:00");
  await until.fill("2027-07-01T10:00");
  assert.equal(await tab.locator("#d-starts-zone").textContent(), "Europe/Paris (UTC+01:00)");
  assert.equal(await tab.locator("#d-ends-zone").textContent(), "Europe/Paris (UTC+02:00)", "summer time");
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  const { display } = await (await manage("GET", `/${id}`)).json();
  assert.equal(new Date(display.startsAt).toISOString(), "2026-12-01T09:00:00.000Z");
  assert.equal(new Date(display.endsAt).toISOString(), "2027-07-01T08:00:00.000Z");
  // Read back, they are in Paris time again.
  assert.equal(await from.inputValue(), "2026-12-01T10:00");
  assert.equal(await until.inputValue(), "2027-07-01T10:00");
  assert.deepEqual(problems, []);
  await context.close();
  await manage("DELETE", `/${id}`);
});
