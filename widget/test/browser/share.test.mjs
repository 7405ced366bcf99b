// The console's Share page (svc.NewConsole), by roles and names, as a product person uses it:
// opened from the editor, the anonymous link turned on and opened, personal links made for two
// people, one opened, all downloaded as CSV, and each Copy button copying and saying so; under
// the page's own policy, then axe-core clean at 320 px.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { axeViolations, base, launch, respondent, sk } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const api = (method, path, body) =>
  fetch(`${base}/v1/protected/surveys${path}`, {
    method, headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" }, body: body && JSON.stringify(body),
  });

// shared makes a published survey of its own for a test: the fixture's link survey stays
// personal for languages.test.mjs.
async function shared(title) {
  const res = await api("POST", "", { title, status: "active",
    questions: [{ id: "why", title: "What brought you here today?", properties: { type: "open-ended" } }] });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id;
}

// accessible runs axe-core on the page (its context bypasses the page's policy for axe's script
// alone) and checks that the page does not scroll sideways.
async function accessible(tab, what) {
  const violations = await axeViolations(tab);
  assert.deepEqual(violations, [], what);
  const width = await tab.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= (tab.viewportSize()?.width ?? 1280), `${what} scrolls sideways: ${width}`);
}

test("Share: the anonymous link on and opened, personal links made, opened and downloaded, each copied", async () => {
  const id = await shared("Shared from the console");
  const context = await browser.newContext();
  context.setDefaultTimeout(5000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const tab = await context.newPage();
  const problems = [];
  tab.on("pageerror", (e) => problems.push(e.message));
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));

  await tab.goto(`${base}/console/surveys/${id}/edit`);
  await tab.getByRole("link", { name: "Share", exact: true }).click();
  await tab.getByRole("heading", { name: "Share", level: 1 }).waitFor();

  // The anonymous link: off, then on, and opened it shows the survey to anyone.
  const anonymous = tab.getByRole("textbox", { name: "Anonymous link" });
  assert.equal(await anonymous.inputValue(), `${base}/s/${id}`);
  await tab.getByRole("button", { name: "Turn on the anonymous link" }).click();
  await tab.getByRole("status").filter({ hasText: "The anonymous link is on" }).waitFor();
  await tab.getByRole("button", { name: "Turn off the anonymous link" }).waitFor();
  const visitor = await context.newPage();
  await visitor.goto(await anonymous.inputValue());
  await visitor.getByRole("region", { name: "Shared from the console" }).getByRole("heading", { name: "What brought you here today?" }).waitFor();

  // Copy: the text on the clipboard, and said in the live region.
  const copied = tab.getByRole("status").filter({ hasText: /^Copied/ });
  await tab.getByRole("button", { name: "Copy the anonymous link" }).click();
  await copied.filter({ hasText: "Copied the anonymous link." }).waitFor();
  assert.equal(await tab.evaluate(() => navigator.clipboard.readText()), `${base}/s/${id}`);
  // The snippet's Copy is next in the keyboard's order after the snippet, and Enter copies.
  await tab.getByRole("textbox", { name: "Snippet" }).focus();
  await tab.keyboard.press("Tab");
  assert.equal(await tab.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Copy the snippet");
  await tab.keyboard.press("Enter");
  await copied.filter({ hasText: "Copied the snippet." }).waitFor();
  const snippet = await tab.evaluate(() => navigator.clipboard.readText());
  assert.ok(snippet.startsWith(`<script src="${base}/v1/svc/widget.js" defer></script>`), snippet);
  assert.match(snippet, /window\.Svc\?\.init\(\{\n\s+publishableKey: "svc_pk_\.\.\."/);

  // Personal links for two people, in a table.
  const ann = respondent("share-ann");
  const bob = respondent("share-bob");
  await tab.getByRole("textbox", { name: "Respondents, one a line" }).fill(`${ann}\n${bob}\n`);
  assert.match(await tab.getByLabel("Expires").inputValue(), /^\d{4}-\d\d-\d\d$/, "an expiry by default");
  await tab.getByRole("button", { name: "Make links" }).click();
  await tab.getByRole("status").filter({ hasText: "Made 2 personal links" }).waitFor();
  const table = tab.getByRole("table", { name: /^Personal links/ });
  const linkOf = async (who) => (await table.getByRole("row", { name: new RegExp(`^${who} `) }).getByRole("cell").textContent()).trim();
  const annLink = await linkOf(ann);
  const bobLink = await linkOf(bob);
  assert.ok(annLink.startsWith(`${base}/s/${id}?`), annLink);

  // Opened, a link shows the survey to its person.
  await visitor.goto(annLink);
  await visitor.getByRole("region", { name: "Shared from the console" }).getByRole("heading", { name: "What brought you here today?" }).waitFor();

  // Downloaded, the CSV holds the same links.
  const [download] = await Promise.all([tab.waitForEvent("download"), tab.getByRole("button", { name: "Download as CSV" }).click()]);
  assert.equal(download.suggestedFilename(), `${id}-links.csv`);
  const csv = (await readFile(await download.path(), "utf8")).trim().split(/\r?\n/);
  assert.deepEqual(csv, ["respondent,link", `${ann},${annLink}`, `${bob},${bobLink}`]);

  await tab.getByRole("button", { name: "Copy all links" }).click();
  await copied.filter({ hasText: "Copied every link." }).waitFor();
  assert.equal(await tab.evaluate(() => navigator.clipboard.readText()), `${annLink}\n${bobLink}`);

  // Off again: the anonymous link asks for a personal one; Ann's still works.
  await tab.getByRole("button", { name: "Turn off the anonymous link" }).click();
  await tab.getByRole("status").filter({ hasText: "The anonymous link is off" }).waitFor();
  const closed = await visitor.goto(`${base}/s/${id}`);
  assert.equal(closed.status(), 403);
  await visitor.getByRole("heading", { name: "This survey needs a personal link" }).waitFor();
  assert.deepEqual(problems, [], "no error, and nothing the pages' policies refused");
  await context.close();
  await api("DELETE", `/${id}`);
});

test("Share at 320 px: readable, no sideways scroll, a bad line said beside the field, axe-core clean", async () => {
  const id = await shared("Shared on a phone");
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 700 } });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  await tab.goto(`${base}/console/surveys/${id}/share`);
  await tab.getByRole("button", { name: "Copy the anonymous link" }).waitFor(); // the script ran
  await accessible(tab, "the Share page");

  const field = tab.getByRole("textbox", { name: "Respondents, one a line" });
  await field.fill("carol\n..\ndave");
  await tab.getByRole("button", { name: "Make links" }).click();
  await tab.getByRole("alert").filter({ hasText: "No links were made" }).waitFor();
  await tab.getByText("Line 2, “..”, is not a respondent").waitFor();
  assert.equal(await field.getAttribute("aria-invalid"), "true");
  assert.match(await field.getAttribute("aria-describedby"), /respondents-error/);
  await accessible(tab, "the Share page with a line refused");

  await field.fill(`${respondent("carol")}\n${respondent("a-respondent-whose-id-is-rather-long@example.com")}`);
  await tab.getByRole("button", { name: "Make links" }).click();
  await tab.getByRole("table", { name: /^Personal links/ }).waitFor();
  await accessible(tab, "the Share page with its links");
  await context.close();
  await api("DELETE", `/${id}`);
});
