// The results pages (svc.NewResults), after the other files' tests have answered the surveys:
// found by roles and names, accessible, under their own strict policy, and readable on a phone.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { axeViolations, base, launch, pk, respondent, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

async function openResults(viewport) {
  const context = await browser.newContext(viewport ? { viewport } : {});
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  tab.on("pageerror", (e) => problems.push(String(e)));
  // Responses of our own, so the pages have something whatever ran before.
  for (const [survey, data] of [
    [surveys.short, { mood: 5, plan: "Team", wish: "Charts" }],
    [surveys.demo, { nps: 9, stars: 4 }],
  ]) {
    const res = await fetch(`${base}/v1/svc/${survey.id}/response/${crypto.randomUUID()}`, {
      method: "PUT",
      headers: { "x-svc-pk": pk, "content-type": "application/json" },
      body: JSON.stringify({ respondent: respondent("results"), data, metadata: {}, finished: true }),
    });
    assert.equal(res.status, 200);
  }
  await tab.goto(`${base}/results/`);
  return { context, tab, problems };
}

test("the results pages: a survey's funnel, charts and answers by roles, under their policy", async () => {
  const { context, tab, problems } = await openResults();
  await tab.getByRole("heading", { name: "Surveys", level: 1 }).waitFor();
  await tab.getByRole("link", { name: "Quick check-in" }).click();
  await tab.getByRole("heading", { name: "Quick check-in", level: 1 }).waitFor();
  await tab.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "Last 7 days" }).click();
  await tab.waitForURL(/timeRange=last-7-days/);
  const funnel = tab.getByRole("region", { name: "Funnel" });
  const started = await funnel.getByRole("listitem").filter({ hasText: "Started" }).textContent();
  assert.ok(Number(started.replace(/\D+/g, "")) >= 1, started);
  const mood = tab.getByRole("region", { name: "How is your day?" });
  assert.match(await mood.textContent(), /CSAT/);
  const plan = tab.getByRole("region", { name: "Which plan are you on?" });
  for (const option of ["Free", "Team", "Enterprise", "Other (free text)"]) await plan.getByText(option, { exact: true }).waitFor();
  await tab.getByRole("region", { name: "One wish for us?" }).getByText("Charts").first().waitFor();
  await tab.getByRole("region", { name: "Latest responses" }).getByRole("article").first().waitFor();
  const demo = await tab.goto(`${base}/results/surveys/${surveys.demo.id}`);
  assert.equal(demo.status(), 200);
  // The NPS reads as one: a whole number with its zone, and its promoters, passives and detractors.
  await tab.getByRole("img", { name: /^NPS -?\d+: (needs work|good|excellent)$/ }).waitFor();
  for (const part of ["Promoters (9–10)", "Passives (7–8)", "Detractors (0–6)"]) await tab.getByText(part).waitFor();
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("a custom range of days, picked in the results page's form", async () => {
  const { context, tab, problems } = await openResults();
  await tab.goto(`${base}/results/surveys/${surveys.short.id}`);
  const day = (msAgo) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
  const [from, to] = [day(6 * 864e5), day(0)];
  const form = tab.getByRole("form", { name: "Custom range" });
  await form.getByLabel("From").fill(from);
  await form.getByLabel("To").fill(to);
  await form.getByRole("button", { name: "Show" }).click();
  await tab.waitForURL(new RegExp(`from=${from}&to=${to}`));
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const start = new Date(`${from}T00:00:00Z`);
  // Said as days, and marked as the range shown.
  await tab.getByText(new RegExp(`^${start.getUTCDate()}( ${months[start.getUTCMonth()]})?( ${start.getUTCFullYear()})? ?[–-]`)).first().waitFor();
  await tab.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: /^Custom: / }).waitFor();
  assert.equal(await tab.getByRole("navigation", { name: "Time range" }).locator('[aria-current="page"]').count(), 1);
  assert.equal(await form.getByLabel("From").inputValue(), from, "the form keeps the range shown");
  const started = await tab.getByRole("region", { name: "Funnel" }).getByRole("listitem").filter({ hasText: "Started" }).textContent();
  assert.ok(Number(started.replace(/\D+/g, "")) >= 1, started);
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("the period's responses download as CSV from the results page", async () => {
  const { context, tab, problems } = await openResults();
  await tab.goto(`${base}/results/surveys/${surveys.short.id}?timeRange=last-7-days`);
  const [download] = await Promise.all([tab.waitForEvent("download"), tab.getByRole("link", { name: "Download CSV" }).click()]);
  assert.equal(download.suggestedFilename(), `${surveys.short.id}-responses.csv`);
  const csv = await readFile(await download.path(), "utf8");
  const [header, ...rows] = csv.trimEnd().split("\n");
  assert.match(header, /^id,respondent,createdAt,updatedAt,finished,/);
  assert.ok(rows.some((row) => row.includes("Charts")), "the response this test made is in the download");
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("a response's own page, opened from the survey's list of responses", async () => {
  const { context, tab, problems } = await openResults();
  await tab.goto(`${base}/results/surveys/${surveys.short.id}`);
  const latest = tab.getByRole("region", { name: "Latest responses" });
  const respondentName = await latest.getByRole("article").first().locator(".who").textContent();
  await latest.getByRole("article").first().getByRole("link").click();
  await tab.getByRole("heading", { name: `Response from ${respondentName}`, level: 1 }).waitFor();
  await tab.getByRole("region", { name: "Answers" }).getByText("How is your day?").waitFor();
  await tab.getByRole("link", { name: "Quick check-in" }).click();
  await tab.getByRole("heading", { name: "Quick check-in", level: 1 }).waitFor();
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("the filter bar narrows the results, and the trend's figures read as a table", async () => {
  const { context, tab, problems } = await openResults();
  await tab.goto(`${base}/results/surveys/${surveys.short.id}?timeRange=last-7-days`);
  const bar = tab.getByRole("search", { name: "Filter responses" });
  await bar.getByRole("combobox", { name: "Answer to “Which plan are you on?”" }).selectOption("Team");
  await bar.getByRole("button", { name: "Apply filters" }).click();
  await tab.waitForURL(/answer\.plan=Team/);
  // Every response listed is a Team one; the filter stays chosen, and can be cleared.
  const cards = tab.getByRole("region", { name: "Latest responses" }).getByRole("article");
  await cards.first().waitFor();
  for (const text of await cards.allTextContents()) assert.match(text, /Team/);
  assert.equal(await bar.getByRole("combobox", { name: "Answer to “Which plan are you on?”" }).inputValue(), "Team");
  // The trend's figures, a table under its chart, one control away (charts.test.mjs tests the charts).
  const overTime = tab.getByRole("region", { name: "Over time" });
  await overTime.locator("summary").filter({ hasText: "Responses per day" }).click();
  const trend = overTime.getByRole("table", { name: "Responses per day" });
  const days = await trend.getByRole("row").count();
  assert.ok(days >= 2 && days <= 9, `${days} rows: a head and a row a day of the last 7 days`);
  await trend.getByRole("columnheader", { name: "Responses" }).waitFor();
  // Every answer to the open question, from its link, and a search among them.
  await tab.getByRole("link", { name: /^All \d+ answers to “One wish for us\?”/ }).click();
  await tab.getByRole("heading", { name: "One wish for us?", level: 1 }).waitFor();
  const search = tab.getByRole("search", { name: "Search the answers" });
  await search.getByRole("searchbox", { name: "Words" }).fill("charts");
  await search.getByRole("button", { name: "Search" }).click();
  await tab.getByRole("region", { name: /^Answers with “charts”/ }).getByText("Charts").first().waitFor();
  await tab.goBack();
  await tab.goBack();
  await tab.getByRole("link", { name: "Clear filters" }).click();
  await tab.waitForURL((url) => !url.search.includes("answer."));
  assert.deepEqual(problems, [], "no error, and nothing the page's policy refused");
  await context.close();
});

test("axe-core finds no violation on the results pages", async () => {
  const context = await browser.newContext({ bypassCSP: true }); // to inject axe; the policy is tested above
  const tab = await context.newPage();
  await tab.goto(`${base}/results/surveys/${surveys.demo.id}`);
  const responsePage = await tab.getByRole("region", { name: "Latest responses" }).getByRole("link").first().getAttribute("href");
  for (const path of ["/results/", `/results/surveys/${surveys.demo.id}`, `/results/surveys/${surveys.short.id}?timeRange=last-30-days`,
    `/results/surveys/${surveys.short.id}?from=2026-01-01&to=2026-01-31`, `/results/surveys/${responsePage}`,
    `/results/surveys/${surveys.short.id}?timeRange=last-30-days&answer.plan=Team&answer.mood.min=3`,
    `/results/surveys/${surveys.short.id}/answers/wish?q=Charts`]) {
    await tab.goto(base + path);
    const violations = await axeViolations(tab);
    assert.deepEqual(violations, [], path);
  }
  await context.close();
});

test("the results page fits a 320 px wide phone, its responses readable and its bars by their labels", async () => {
  const { context, tab } = await openResults({ width: 320, height: 640 });
  await tab.goto(`${base}/results/surveys/${surveys.demo.id}`);
  await tab.getByRole("region", { name: "Funnel" }).waitFor();
  const width = await tab.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 320, `the page scrolls sideways: ${width}`);
  // The filter bar's controls fit too (the trend's table scrolls inside its own box).
  for (const control of await tab.getByRole("search", { name: "Filter responses" }).getByRole("combobox").all()) {
    const b = await control.boundingBox();
    assert.ok(b.x + b.width <= 320, `a filter control ends at ${b.x + b.width} px`);
  }
  // Each response a card: its answers as wide as the card, not a 79 px column breaking every
  // two letters.
  const answer = tab.getByRole("region", { name: "Latest responses" }).getByRole("definition").first();
  const box = await answer.boundingBox();
  assert.ok(box.width >= 240, `an answer is ${box.width} px wide`);
  const height = await tab.getByRole("region", { name: "Latest responses" }).evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height < 4000, `ten responses take ${height} px`);
  // A bar is nearer its own label than the next label.
  const gaps = await tab.getByRole("region", { name: "Funnel" }).evaluate((el) => {
    const items = Array.from(el.querySelectorAll(".chart li"));
    return items.slice(0, -1).map((li, i) => {
      const label = li.querySelector(".label").getBoundingClientRect();
      const bar = li.querySelector("svg").getBoundingClientRect();
      const next = items[i + 1].querySelector(".label").getBoundingClientRect();
      return { own: bar.top - label.bottom, next: next.top - bar.bottom };
    });
  });
  for (const g of gaps) assert.ok(g.own < g.next, `a bar ${g.own} px from its label, ${g.next} px from the next: ${JSON.stringify(gaps)}`);
  await context.close();
});
