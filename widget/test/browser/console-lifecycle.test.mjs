// The console's lifecycle (svc.NewConsole): Publish and Pause in the editor, the list as a
// sortable table, "Check who sees it" answering as next-survey does, and two tabs editing one
// survey, merged, by roles and names, as a product person would.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { axeViolations, base, launch, pk, sk } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const api = (method, path, body) =>
  fetch(`${base}/v1/protected/surveys${path}`, {
    method, headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" }, body: body && JSON.stringify(body),
  });
const served = async (id) => (await fetch(`${base}/v1/svc/${id}`, { headers: { "x-svc-pk": pk } })).status;
const nextSurvey = async (respondent, url) => {
  const res = await fetch(`${base}/v1/svc/next-survey`, {
    method: "POST", headers: { "x-svc-pk": pk, "content-type": "application/json" }, body: JSON.stringify({ respondent, url }),
  });
  return res.json();
};

// accessible runs axe-core on the page as console.test.mjs does (its contexts bypass the pages'
// policy for axe's script alone: console.test.mjs checks the policy), and checks that the page
// does not scroll sideways.
async function accessible(tab, what) {
  const violations = await axeViolations(tab);
  assert.deepEqual(violations, [], what);
  const width = await tab.evaluate(() => document.documentElement.scrollWidth);
  const viewport = tab.viewportSize()?.width ?? 1280;
  assert.ok(width <= viewport, `${what} scrolls sideways: ${width}`);
}

test("Publish in the editor saves, publishes, and says how the survey is shown; Pause stops it", async () => {
  const context = await browser.newContext({ bypassCSP: true });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  await tab.goto(`${base}/console/`);
  const form = tab.getByRole("form", { name: "New survey" });
  await form.getByRole("combobox", { name: "Template" }).selectOption({ label: "Customer satisfaction" });
  await form.getByRole("button", { name: "New survey" }).click();
  await tab.getByRole("heading", { name: "Edit survey", level: 1 }).waitFor();
  const id = new URL(tab.url()).pathname.split("/").at(-2);
  assert.equal(await served(id), 404, "a new survey waits to be published");

  await tab.getByRole("textbox", { name: "Survey title" }).fill("Published from the editor");
  await tab.getByRole("button", { name: "Publish", exact: true }).click();
  await tab.getByRole("status").getByText("Published. It has no display rules: it shows only where your app calls Svc.show").waitFor();
  assert.equal(await served(id), 200, "published, the public API serves it");
  const view = await (await fetch(`${base}/v1/svc/${id}`, { headers: { "x-svc-pk": pk } })).json();
  assert.equal(view.title, "Published from the editor", "the edit made before Publish is what was published");
  await accessible(tab, "the editor after Publish");

  await tab.getByRole("textbox", { name: "Survey title" }).fill("Typed, not saved");
  await tab.getByRole("button", { name: "Pause", exact: true }).click();
  await tab.getByRole("status").getByText(/^Paused: svc no longer shows it/).waitFor();
  assert.equal(await served(id), 404, "paused, it is not served");
  assert.equal(await tab.getByRole("textbox", { name: "Survey title" }).inputValue(), "Typed, not saved", "Pause keeps the form's edits");
  await tab.getByRole("button", { name: "Publish", exact: true }).waitFor();
  await api("DELETE", `/${id}`);
  await context.close();
});

test("the list is a table sorted by a column, with how each survey is shown, at 320 px", async () => {
  const made = await (await api("POST", "", { title: "Ruled for the list", status: "inactive",
    display: { urls: [{ match: "prefix", value: "/list-e2e" }] },
    questions: [{ id: "q1", title: "How was it?", properties: { type: "rating", scale: 5 } }] })).json();
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 700 } });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  await tab.goto(`${base}/console/`);
  const table = tab.getByRole("table", { name: /^The team’s surveys/ });
  for (const name of ["Title", "Status", "How it is shown", "Responses", "Last response", "NPS", "Actions"]) {
    await table.getByRole("columnheader", { name }).waitFor();
  }
  const row = table.getByRole("row").filter({ has: tab.getByRole("link", { name: "Ruled for the list" }) });
  assert.deepEqual((await row.getByRole("cell").allTextContents()).slice(0, 2), ["paused", "rules"]);
  await tab.getByRole("region", { name: /^The team’s surveys/ }).waitFor(); // scrolls inside its own region

  await table.getByRole("columnheader", { name: "Responses" }).getByRole("link").click();
  await tab.waitForURL(/sort=responses/);
  const sorted = tab.getByRole("table", { name: /sorted by responses, descending$/ });
  assert.equal(await sorted.getByRole("columnheader", { name: "Responses" }).getAttribute("aria-sort"), "descending");
  assert.equal(await sorted.getByRole("columnheader", { name: "Title" }).getAttribute("aria-sort"), null);
  const counts = (await sorted.getByRole("row").filter({ has: tab.getByRole("rowheader") }).evaluateAll((rows) =>
    rows.map((r) => Number.parseInt(r.querySelectorAll("td")[2].textContent, 10))));
  assert.ok(counts.length > 1, "the table lists the surveys");
  assert.deepEqual(counts, [...counts].sort((a, b) => b - a), "most responses first");
  await accessible(tab, "the sorted list at 320 px");
  await sorted.getByRole("columnheader", { name: "Responses" }).getByRole("link").click();
  await tab.getByRole("table", { name: /sorted by responses, ascending$/ }).waitFor();

  // The row's actions still work: Publish, then Pause, from the table.
  const again = tab.getByRole("row").filter({ has: tab.getByRole("link", { name: "Ruled for the list" }) });
  await again.getByRole("button", { name: "Publish" }).click();
  await tab.getByRole("row").filter({ has: tab.getByRole("link", { name: "Ruled for the list" }) }).getByRole("button", { name: "Pause" }).waitFor();
  assert.equal(await served(made.id), 200);
  await api("DELETE", `/${made.id}`);
  await context.close();
});

test("Check who sees it answers for a page as next-survey does, recording nothing", async () => {
  const made = await (await api("POST", "", { title: "Who sees it, e2e", status: "active",
    display: { urls: [{ match: "prefix", value: "/who-e2e" }], recontact: "once", priority: 1000 },
    questions: [{ id: "q1", title: "How was it?", properties: { type: "rating", scale: 5 } }] })).json();
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 700 } });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  await tab.goto(`${base}/console/surveys/${made.id}/edit`);
  await tab.getByRole("link", { name: "Check who sees it" }).click();
  await tab.getByRole("heading", { name: "Check who sees it", level: 1 }).waitFor();
  const who = `who-${Date.now()}`;
  const check = async (url, attributes = "") => {
    await tab.getByRole("textbox", { name: "Respondent" }).fill(who);
    await tab.getByRole("textbox", { name: "Page URL" }).fill(url);
    await tab.getByRole("textbox", { name: "Attributes, key=value a line" }).fill(attributes);
    await tab.getByRole("button", { name: "Check who sees it" }).click();
    const answer = tab.getByRole("region", { name: "Answer" }).getByRole("status");
    await answer.waitFor();
    return answer.textContent();
  };
  const onPage = await check("https://app.example.com/who-e2e/start", "plan=pro");
  assert.match(onPage, /Shown: Who sees it, e2e\./);
  assert.match(onPage, /This survey is the one shown\./);
  await accessible(tab, "the check's answer at 320 px");
  const off = await check("https://app.example.com/nowhere-e2e");
  const apiOff = await nextSurvey(who, "https://app.example.com/nowhere-e2e");
  if (apiOff.survey) assert.match(off, new RegExp(`Shown: ${apiOff.survey.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  else assert.match(off, new RegExp(`Reason: ${apiOff.reason}\\.`), `the API says ${apiOff.reason}`);
  // Nothing was recorded: shown once only, it is still the person's to see.
  const picked = await nextSurvey(who, "https://app.example.com/who-e2e/start");
  assert.equal(picked.survey?.id, made.id, "next-survey picks it too, so the check recorded no view");
  await api("DELETE", `/${made.id}`);
  await context.close();
});

test("two tabs edit one survey: different questions both saved; the same field refused, the other value shown, the person's text kept", async () => {
  const made = await (await api("POST", "", { title: "Edited in two tabs", status: "inactive", questions: [
    { id: "q1", title: "First question", properties: { type: "open-ended" } },
    { id: "q2", title: "Second question", properties: { type: "open-ended" } }] })).json();
  const context = await browser.newContext({ bypassCSP: true });
  context.setDefaultTimeout(5000);
  const one = await context.newPage();
  const two = await context.newPage();
  const editor = `${base}/console/surveys/${made.id}/edit`;
  await one.goto(editor);
  await two.goto(editor);

  await one.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Question title" }).fill("First, from tab one");
  await one.getByRole("button", { name: "Save", exact: true }).click();
  await one.getByRole("status").getByText("Saved.").waitFor();
  await two.getByRole("group", { name: "Question 2" }).getByRole("textbox", { name: "Question title" }).fill("Second, from tab two");
  await two.getByRole("button", { name: "Save", exact: true }).click();
  await two.getByRole("status").getByText("Saved, with the changes made meanwhile by someone else kept.").waitFor();
  let stored = await (await api("GET", `/${made.id}`)).json();
  assert.deepEqual(stored.questions.map((q) => q.title), ["First, from tab one", "Second, from tab two"]);

  // The same field in both tabs.
  await one.goto(editor);
  await two.goto(editor);
  await one.getByRole("textbox", { name: "Survey title" }).fill("Title from tab one");
  await one.getByRole("button", { name: "Save", exact: true }).click();
  await one.getByRole("status").getByText("Saved.").waitFor();
  await two.getByRole("textbox", { name: "Survey title" }).fill("Title from tab two");
  await two.getByRole("button", { name: "Save", exact: true }).click();
  await two.getByRole("alert").getByText(/^Someone changed this survey since you opened it/).waitFor();
  await two.getByText("Changed meanwhile to: “Title from tab one”").waitFor();
  assert.equal(await two.getByRole("textbox", { name: "Survey title" }).inputValue(), "Title from tab two", "the person's text is kept");
  assert.equal((await (await api("GET", `/${made.id}`)).json()).title, "Title from tab one", "the refused save changed nothing");
  await accessible(two, "the editor with a conflict");
  // Saved again, knowing: the person's value wins.
  await two.getByRole("button", { name: "Save", exact: true }).click();
  await two.getByRole("status").getByText("Saved.").waitFor();
  stored = await (await api("GET", `/${made.id}`)).json();
  assert.equal(stored.title, "Title from tab two");
  await api("DELETE", `/${made.id}`);
  await context.close();
});
