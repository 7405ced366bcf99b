// The survey page's trend drawn on the server as SVG: each chart an image named by its heading
// and described, its figures a table one key away, accessible, and at 320 px scrolling inside its
// own box, never the page.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { axeViolations, base, launch, pk, respondent, surveys } from "./helpers.mjs";

let browser;
before(async () => {
  browser = await launch();
  // A response to each survey, so that the last days have something to draw.
  for (const [survey, data] of [
    [surveys.short, { mood: 4, plan: "Free" }],
    [surveys.demo, { nps: 10, stars: 5 }],
  ]) {
    const res = await fetch(`${base}/v1/svc/${survey.id}/response/${crypto.randomUUID()}`, {
      method: "PUT",
      headers: { "x-svc-pk": pk, "content-type": "application/json" },
      body: JSON.stringify({ respondent: respondent("charts"), data, metadata: {}, finished: true }),
    });
    assert.equal(res.status, 200);
  }
});
after(async () => browser?.close());

async function openPage(path, options = {}) {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  tab.on("pageerror", (e) => problems.push(String(e)));
  await tab.goto(base + path);
  return { context, tab, problems };
}

test("the trend's charts are images named by their headings, their figures a table one key away", async () => {
  const { context, tab, problems } = await openPage(`/results/surveys/${surveys.demo.id}?timeRange=last-7-days`);
  const trend = tab.getByRole("region", { name: "Over time" });
  const names = ["Responses per day", "NPS per day: “How likely are you to recommend us to a friend?”", "CSAT per day: “How would you rate the new dashboard?”"];
  for (const name of names) {
    await trend.getByRole("heading", { name, exact: true, level: 3 }).waitFor();
    await trend.getByRole("img", { name, exact: true }).waitFor();
  }
  assert.equal(await trend.getByRole("img").count(), names.length, "an image a chart, and no other");
  // Described: its figures in words.
  const responses = trend.getByRole("img", { name: "Responses per day", exact: true });
  const description = await responses.evaluate((svg) => document.getElementById(svg.getAttribute("aria-describedby")).textContent);
  assert.match(description, /^Responses by day, \d+ \w+ \d{4} to \d+ \w+ \d{4}: \d+ in all, \d+ finished; first \d+ .*, highest \d+ /);
  // A column a day of the range, today's the last: 8 (the first day is the part within the 7 days).
  const columns = await responses.locator("rect.col:not(.swatch)").count();
  assert.ok(columns === 8 || columns === 7, `${columns} columns`);
  // The figures: closed, reached by Tab from the chart's box, opened with Enter.
  const table = trend.getByRole("table", { name: "Responses per day", exact: true });
  assert.equal(await table.isVisible(), false, "the table waits behind its control");
  await trend.getByRole("group", { name: "Responses per day, a chart that scrolls sideways" }).focus();
  await tab.keyboard.press("Tab");
  const focused = await tab.evaluate(() => document.activeElement.textContent);
  assert.equal(focused, "Figures as a table: Responses per day");
  await tab.keyboard.press("Enter");
  await table.waitFor();
  const rows = await table.getByRole("row").all();
  assert.equal(rows.length, columns + 1, "a row a column, and the head");
  // The same figures: the last day's responses, in the table and in the last column's title.
  const lastRow = await rows.at(-1).getByRole("cell").first().textContent();
  const lastColumn = await responses.locator("g title").last().textContent();
  assert.match(lastColumn, new RegExp(`: ${lastRow} responses?, `), `${lastColumn} against ${lastRow}`);
  assert.ok(Number(lastRow) >= 1, "today's column holds the response made for this test");
  await tab.keyboard.press("Enter");
  await table.waitFor({ state: "hidden" });
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("at 320 px each chart scrolls inside its own box, never the page", async () => {
  const { context, tab, problems } = await openPage(`/results/surveys/${surveys.short.id}?timeRange=last-30-days`, { viewport: { width: 320, height: 640 } });
  const box = tab.getByRole("group", { name: "CSAT per day: “How is your day?”, a chart that scrolls sideways" });
  await box.waitFor();
  const page = await tab.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(page.scroll <= page.client, `the page scrolls sideways: ${JSON.stringify(page)}`);
  const sizes = await tab.getByRole("region", { name: "Over time" }).locator(".trend-plot").evaluateAll((boxes) =>
    boxes.map((b) => ({ scroll: b.scrollWidth, client: b.clientWidth, right: b.getBoundingClientRect().right })));
  assert.ok(sizes.length >= 2, JSON.stringify(sizes));
  for (const s of sizes) {
    assert.ok(s.scroll > s.client, `a chart fits its ${s.client} px: it should scroll, being wider (${JSON.stringify(sizes)})`);
    assert.ok(s.right <= 320, `a chart's box ends at ${s.right} px`);
  }
  // By keyboard: the box takes focus, and the arrow keys scroll it, not the page.
  await box.focus();
  for (let i = 0; i < 5; i++) await tab.keyboard.press("ArrowRight");
  assert.ok((await box.evaluate((b) => b.scrollLeft)) > 0, "the chart's box scrolled");
  assert.equal(await tab.evaluate(() => window.scrollX), 0, "the page did not");
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("axe-core finds no violation in the charts, their tables open or closed, wide or at 320 px", async () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 320, height: 640 }]) {
    for (const scheme of ["light", "dark"]) {
      // bypassCSP to inject axe; the policy is tested above.
      const { context, tab } = await openPage(`/results/surveys/${surveys.demo.id}?timeRange=last-30-days`, { bypassCSP: true, viewport, colorScheme: scheme });
      const run = () => axeViolations(tab);
      assert.deepEqual(await run(), [], `closed, ${viewport.width} px, ${scheme}`);
      for (const summary of await tab.locator(".figures summary").all()) await summary.click();
      assert.deepEqual(await run(), [], `open, ${viewport.width} px, ${scheme}`);
      await context.close();
    }
  }
});
