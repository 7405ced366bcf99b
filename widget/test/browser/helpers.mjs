// Shared pieces of the browser tests: the browser, the server the Go test started (SVC_E2E_URL),
// the fixture's surveys and keys, and the protected API to see what was saved.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

export const base = process.env.SVC_E2E_URL;
if (!base) throw new Error("SVC_E2E_URL is not set: run these tests through go test ./widget");

const fixture = JSON.parse(readFileSync(new URL("../fixture.json", import.meta.url)));
const team = fixture.teams[0];
export const pk = team.publishableKeys[0];
export const sk = team.secretKeys[0];
export const surveys = Object.fromEntries(team.surveys.map((s) => [s.id.replace(/^cwidget/, "").replace(/0+1$/, ""), s]));
// surveys.demo (every type), surveys.short (required questions, back navigation), surveys.bug

export async function launch() {
  return chromium.launch({
    executablePath: process.env.SVC_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    // The machine has no network beyond loopback: Chromium's own background traffic only fails.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

let respondents = 0;
/** respondent is a new respondent id for one test. */
export function respondent(name) {
  respondents += 1;
  return `${name}-${process.pid}-${respondents}-${Date.now()}`;
}

/**
 * open loads a test page that shows a survey; page is "page", "hostile" or "csp". Without
 * gesture the page shows it on load, by itself; with gesture "click" or "key" a person shows it,
 * clicking the page's "Show the survey" button or pressing Enter on it. With clock, the page's
 * timers are Playwright's, for the test to move on. It returns the page's uncaught errors and
 * the events the widget posted, as they come.
 */
export async function open(browser, { survey, who, page = "page", params = {}, viewport, clock = false, gesture } = {}) {
  const context = await browser.newContext(viewport ? { viewport } : {});
  if (clock) await context.clock.install(); // time flows until the test moves it on
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const errors = [];
  const events = []; // the types of the event POSTs the widget sent
  tab.on("pageerror", (e) => errors.push(e));
  tab.on("request", (r) => r.method() === "POST" && r.url().endsWith("/event") && events.push(r.postDataJSON().type));
  if (process.env.SVC_E2E_DEBUG) {
    tab.on("console", (m) => console.error("console:", m.text()));
    tab.on("requestfailed", (r) => console.error("failed:", r.method(), r.url(), r.failure()?.errorText));
    tab.on("response", async (r) => console.error("reply:", r.request().method(), r.url(), r.status(), r.status() >= 400 ? await r.text() : ""));
  }
  const q = new URLSearchParams({ survey: survey.id, pk, respondent: who, ...params, ...(gesture ? { gesture: "1" } : {}) });
  await tab.goto(`${base}/test/${page}.html?${q}`);
  const button = tab.getByRole("button", { name: "Show the survey" });
  if (gesture === "click") await button.click();
  if (gesture === "key") {
    await button.focus();
    await tab.keyboard.press("Enter");
  }
  return { context, tab, errors, events };
}

/** responses lists a survey's responses through the protected API, newest first. */
export async function responses(survey, who) {
  const res = await fetch(`${base}/v1/protected/surveys/${survey.id}/responses?respondent=${encodeURIComponent(who)}`, {
    headers: { Authorization: `Bearer ${sk}` },
  });
  if (!res.ok) throw new Error(`responses: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

export async function history(survey, who) {
  const res = await fetch(`${base}/v1/svc/${survey.id}/respondent/${encodeURIComponent(who)}`, { headers: { "x-svc-pk": pk } });
  return res.json();
}

/** eventually retries check until it stops throwing, for what the browser sends in its own time. */
export async function eventually(check, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** saved waits until the respondent's one response holds want (a subset of its data). */
export async function saved(survey, who, want, finished = false) {
  return eventually(async () => {
    const list = await responses(survey, who);
    if (list.length !== 1) throw new Error(`${list.length} responses for ${who}`);
    const r = list[0];
    for (const [k, v] of Object.entries(want)) {
      if (JSON.stringify(r.data[k]) !== JSON.stringify(v)) throw new Error(`data.${k} = ${JSON.stringify(r.data[k])}, want ${JSON.stringify(v)}`);
    }
    if (r.finished !== finished) throw new Error(`finished = ${r.finished}, want ${finished}`);
    return r;
  });
}

/** outcome waits for what Svc.show resolved with, as the page wrote it. */
export async function outcome(tab) {
  const out = tab.locator("#result");
  await out.filter({ hasText: /./ }).waitFor();
  const text = await out.textContent();
  if (text.startsWith("error:")) throw new Error(text);
  return JSON.parse(text);
}

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

// axeViolations runs axe-core on the page against WCAG 2.2 A and AA and returns what it finds,
// a line each ([] when nothing). Its page's context must bypass the page's policy
// (bypassCSP) for axe's script alone: the tests of each page check the policy itself.
export async function axeViolations(tab) {
  if (!(await tab.evaluate(() => "axe" in window))) await tab.addScriptTag({ path: axePath });
  return tab.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
    return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
}
