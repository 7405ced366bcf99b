// The results page's segments (a filter per metadata key, the language and the page, with their
// most frequent values) and Compare, two segments side by side: found by roles and names, on a
// 320 px wide phone, and accessible.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { axeViolations, base, launch, pk, respondent, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

// Tiers of this run's own, so that the figures are this file's whatever ran before.
const gold = `gold-${process.pid}`;
const silver = `silver-${process.pid}`;

/** answer writes responses to the demo survey: gold's scores 10 and 8, silver's 3. */
async function answer() {
  for (const [tier, nps, finished] of [[gold, 10, true], [gold, 8, false], [silver, 3, true]]) {
    const res = await fetch(`${base}/v1/svc/${surveys.demo.id}/response/${crypto.randomUUID()}`, {
      method: "PUT",
      headers: { "x-svc-pk": pk, "content-type": "application/json" },
      body: JSON.stringify({ respondent: respondent("segments"), data: { nps }, metadata: { tier, url: `${base}/pricing?tier=${tier}` }, finished }),
    });
    assert.equal(res.status, 200);
  }
}

/** cells are the texts of a table row's cells, the row found by its header's name (a string, exact, or a RegExp). */
async function cells(table, header) {
  const row = table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name: header, exact: true }) });
  if ((await row.count()) !== 1) {
    const names = await table.getByRole("rowheader").evaluateAll((ths) => ths.map((th) => th.textContent));
    assert.fail(`no one row headed ${header} among ${JSON.stringify(names)}`);
  }
  return row.getByRole("cell").allTextContents();
}

test("segments: a metadata filter picked by its name, then Compare's table, on a 320 px phone", async () => {
  await answer();
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  tab.on("pageerror", (e) => problems.push(String(e)));
  await tab.goto(`${base}/results/surveys/${surveys.demo.id}?timeRange=last-7-days`);
  const bar = tab.getByRole("search", { name: "Filter responses" });
  // The page of the responses is offered, by its path.
  const pages = await bar.getByRole("combobox", { name: "Page", exact: true }).locator("option").allTextContents();
  assert.ok(pages.includes("/pricing"), `pages offered: ${pages}`);
  await bar.getByRole("combobox", { name: "Metadata: tier", exact: true }).selectOption(gold);
  await bar.getByRole("button", { name: "Apply filters" }).click();
  await tab.waitForURL(new RegExp(`metadata\\.tier=${gold}`));
  const started = await tab.getByRole("region", { name: "Funnel" }).getByRole("listitem").filter({ hasText: "Started" }).textContent();
  assert.equal(Number(started.replace(/\D+/g, "")), 2, started);
  assert.ok(await tab.evaluate(() => document.documentElement.scrollWidth) <= 320, "the filtered page scrolls sideways");

  // Compare, from the page: its filter is segment A; segment B is picked in its own group.
  await tab.getByRole("link", { name: "Compare segments" }).click();
  await tab.getByRole("heading", { name: "Compare segments", level: 1 }).waitFor();
  const a = tab.getByRole("group", { name: "Segment A" });
  const b = tab.getByRole("group", { name: "Segment B" });
  assert.equal(await a.getByRole("combobox", { name: "Metadata: tier", exact: true }).inputValue(), gold);
  await b.getByRole("combobox", { name: "Metadata: tier", exact: true }).selectOption(silver);
  await tab.getByRole("button", { name: "Compare" }).click();
  await tab.waitForURL(new RegExp(`b\\.metadata\\.tier=${silver}`));
  const table = tab.getByRole("table", { name: /^Segment A and segment B compared/ });
  for (const name of ["Segment A", "Segment B", "Difference (B − A)"]) await table.getByRole("columnheader", { name }).waitFor();
  assert.deepEqual(await cells(table, "Responses"), ["2", "1", "−1"]);
  assert.deepEqual(await cells(table, "Finished"), ["1", "1", "0"]);
  assert.deepEqual(await cells(table, "Finished, share of responses"), ["50.0%", "100.0%", "+50.0 percentage points"]);
  // gold: a promoter and a passive, NPS 50; silver: a detractor, NPS −100.
  // A question's rows name it too (as hidden text, for a screen reader reading a row alone).
  assert.deepEqual(await cells(table, /^NPS \(−100 to 100\)\W+How likely are you to recommend us to a friend\?/), ["50", "−100", "−150 points"]);
  // The table scrolls inside its own region, never the page.
  const region = tab.getByRole("region", { name: /^Segment A and segment B compared/ });
  await region.waitFor();
  assert.ok(await tab.evaluate(() => document.documentElement.scrollWidth) <= 320, "the compare page scrolls sideways");
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("segments: axe-core finds no violation on the filter bar's segments and on Compare", async () => {
  await answer();
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 640 } }); // to inject axe
  const tab = await context.newPage();
  for (const path of [`/results/surveys/${surveys.demo.id}?metadata.tier=${gold}&page=/pricing`,
    `/results/surveys/${surveys.demo.id}/compare?a.metadata.tier=${gold}&b.metadata.tier=${silver}&b.answer.nps.min=3`,
    `/results/surveys/${surveys.demo.id}/compare?b.page=pricing`]) {
    await tab.goto(base + path);
    const violations = await axeViolations(tab);
    assert.deepEqual(violations, [], path);
  }
  await context.close();
});
