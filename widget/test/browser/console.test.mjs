// The console (svc.NewConsole): a survey made from a template, published, paused and deleted by
// roles and names, as a product person would, and found served, or not, by the public API.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";
import { base, launch, pk, sk, surveys } from "./helpers.mjs";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

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
  await tab.getByRole("group", { name: "Question 3" }).getByRole("textbox", { name: "Options, one a line" }).fill("Free\nPro");
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
  const item = () => tab.getByRole("listitem").filter({ has: tab.getByRole("link", { name: "Our NPS, with plans" }) }).first();
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
      await tab.addScriptTag({ path: axePath });
      const violations = await tab.evaluate(async () => {
        const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
        return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
      });
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
  await rule.getByRole("combobox", { name: "Condition" }).selectOption({ label: "is at least" });
  await rule.getByRole("textbox", { name: "Value" }).fill("9");
  await rule.getByRole("combobox", { name: "Go to" }).selectOption({ label: "The end of the survey" });
  // Shown by svc on the docs pages, to people on the pro plan, once.
  const who = tab.getByRole("group", { name: "Who sees it, and when" });
  await who.getByRole("checkbox", { name: /svc shows it by itself/ }).check();
  await who.getByRole("textbox", { name: "Pages where it shows, one a line" }).fill("starts with /docs-e2e");
  await who.getByRole("textbox", { name: "People it shows to, a rule a line" }).fill("plan is pro");
  await who.getByRole("combobox", { name: "Ask the same person" }).selectOption({ label: "Once" });
  assert.ok((await tab.evaluate(() => document.documentElement.scrollWidth)) <= 320, "the editor scrolls sideways");
  await tab.getByRole("button", { name: "Save", exact: true }).click();
  await tab.getByRole("status").getByText("Saved.").waitFor();
  assert.equal(await tab.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Value" }).inputValue(), "9");

  await tab.getByRole("link", { name: "All surveys" }).click();
  const item = tab.getByRole("listitem").filter({ has: tab.getByRole("link", { name: "Docs poll" }) }).first();
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
      return named && (!within || el.closest("li")?.textContent.includes(within));
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
  await tab.getByRole("listitem").filter({ hasText: "Keyboard poll" }).getByRole("button", { name: "Pause" }).waitFor();
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
