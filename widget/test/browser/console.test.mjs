// The console (svc.NewConsole): a survey made from a template, published, paused and deleted by
// roles and names, as a product person would, and found served, or not, by the public API.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";
import { base, launch, pk } from "./helpers.mjs";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const served = async (id) => (await fetch(`${base}/v1/svc/${id}`, { headers: { "x-svc-pk": pk } })).status;

test("a survey from a template, published, paused and deleted in the console", async () => {
  const context = await browser.newContext();
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await tab.goto(`${base}/console/`);
  const form = tab.getByRole("form", { name: "New survey" });
  await form.getByRole("combobox", { name: "Template" }).selectOption({ label: "Net Promoter Score" });
  await form.getByRole("button", { name: "New survey" }).click();
  await tab.getByRole("heading", { name: "How likely are you to recommend us?", level: 1 }).waitFor();
  const id = new URL(tab.url()).pathname.split("/").pop();
  assert.equal(await served(id), 404, "a new survey waits to be published");

  await tab.getByRole("link", { name: "All surveys" }).click();
  const item = () => tab.getByRole("listitem").filter({ has: tab.getByRole("link", { name: "How likely are you to recommend us?" }) }).first();
  await item().getByRole("button", { name: "Publish" }).click();
  await item().getByRole("button", { name: "Pause" }).waitFor();
  assert.equal(await served(id), 200, "published, the public API serves it");
  await item().getByRole("button", { name: "Pause" }).click();
  await item().getByRole("button", { name: "Publish" }).waitFor();
  assert.equal(await served(id), 404, "paused, it is not served");

  await item().getByRole("link", { name: "Delete" }).click();
  await tab.getByRole("button", { name: "Delete survey" }).click();
  await tab.getByRole("heading", { name: "Surveys", level: 1 }).waitFor();
  assert.equal(await tab.getByRole("link", { name: "How likely are you to recommend us?" }).count(), 0);
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("the console's list is accessible and fits 320 px", async () => {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 640 } });
  const tab = await context.newPage();
  await tab.goto(`${base}/console/`);
  await tab.addScriptTag({ path: axePath });
  const violations = await tab.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
    return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
  assert.deepEqual(violations, []);
  const width = await tab.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 320, `the list scrolls sideways: ${width}`);
  await context.close();
});
