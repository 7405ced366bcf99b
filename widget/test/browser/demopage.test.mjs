// The example server's demo page, as a product person uses it: it plays an app whose widget lets
// svc pick the survey (Svc.init), so that a survey published with display rules appears on the
// demo page its rules name and on no other; the built-in demo survey opens from a button and never
// by itself. This file builds and starts examples/server itself (the demo page is that program's),
// on a database of its own, with the demo team's console.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { axeViolations, launch } from "./helpers.mjs";

const repo = fileURLToPath(new URL("../../..", import.meta.url));

let browser, dir, server, demo, sk;

// startDemo builds and starts the server on a new database, and resolves with its address and
// the secret key it prints on first start.
async function startDemo() {
  dir = mkdtempSync(join(tmpdir(), "svc-demopage-"));
  const bin = join(dir, "server");
  execFileSync("go", ["build", "-o", bin, "./examples/server"], { cwd: repo, stdio: ["ignore", "ignore", "inherit"] });
  // The server reads SVC_* variables: none of the test run's may reach it.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SVC_") && k !== "PORT"));
  server = spawn(bin, ["-addr", "127.0.0.1:0", "-db", join(dir, "svc.db"), "-console", "demo", "-access-log=false"], {
    env, stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  let url;
  for await (const line of createInterface({ input: server.stdout })) {
    out += line + "\n";
    url = line.match(/^listening on (http:\/\/\S+)$/)?.[1];
    if (url) break;
  }
  if (!url) throw new Error(`the demo server stopped before it listened:\n${out}`);
  server.stdout.resume(); // drained from here on, so the server never blocks on a full pipe
  return { url, sk: out.match(/export SVC_SK=(\S+)/)?.[1] };
}

// ready starts the server and publishes what the tests look for, once, when a test first needs
// it: not in before(), which runs even when a name pattern leaves none of this file's tests.
let started;
function ready() {
  started ??= (async () => {
    browser = await launch();
    ({ url: demo, sk } = await startDemo());
    assert.ok(sk, "the server printed no secret key");
    // What a product person publishes: a survey for the pricing page, and one for an event.
    await publish("Pricing feedback", { urls: [{ match: "exact", value: "/?page=pricing" }] });
    await publish("Checkout feedback", { events: ["checkout"] });
  })();
  return started;
}

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// publish makes an active survey of one rating question with the given title and display rules,
// through the management API.
async function publish(title, display) {
  const res = await fetch(`${demo}/v1/protected/surveys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${sk}`, "content-type": "application/json" },
    body: JSON.stringify({
      title, status: "active", display,
      questions: [{ id: "score", title: `${title}: how was it?`, required: true, properties: { type: "rating", scale: 5, display: "number", buttonLabel: "Send" } }],
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

// openDemo opens a demo page and resolves once the widget has had svc's decision for it, with
// that decision, the page's problems (errors, and anything its policy refused) and the asks.
async function openDemo(path, options = {}) {
  await ready();
  const context = await browser.newContext(options);
  context.setDefaultTimeout(5000);
  const tab = await context.newPage();
  const problems = [];
  const asks = []; // the bodies of the next-survey asks
  tab.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  tab.on("pageerror", (e) => problems.push(String(e)));
  tab.on("request", (r) => r.url().endsWith("/v1/svc/next-survey") && asks.push(r.postDataJSON()));
  const decided = decision(tab);
  await tab.goto(demo + path);
  return { context, tab, problems, asks, decision: await decided };
}

// decision resolves with svc's answer to the widget's next ask.
async function decision(tab) {
  const res = await tab.waitForResponse((r) => r.url().endsWith("/v1/svc/next-survey"));
  assert.equal(res.status(), 200);
  return res.json();
}

const focusIn = (tab) => tab.evaluate(() => document.activeElement?.tagName);
const link = (tab, name) => tab.getByRole("navigation", { name: "Demo pages" }).getByRole("link", { name, exact: true });

test("a survey published with a URL rule for the pricing page appears there, by itself, and not on another page", async () => {
  const { context, tab, problems, decision: home } = await openDemo("/");
  assert.equal(home.survey, null, "picked on the home page");

  const next = decision(tab);
  await link(tab, "Pricing").click();
  const pricing = await next;
  assert.equal(pricing.survey?.title, "Pricing feedback");
  await tab.getByRole("heading", { name: "Pricing", level: 1 }).waitFor();
  assert.equal(await link(tab, "Pricing").getAttribute("aria-current"), "page");
  const dialog = tab.getByRole("dialog", { name: "Pricing feedback" });
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute("aria-modal"), null, "it appeared by itself: not modal");
  assert.equal(await focusIn(tab), "BODY", "a survey that appeared by itself took the focus");
  assert.equal(await tab.getByRole("dialog", { name: "How are we doing?" }).count(), 0, "the demo survey appeared unasked");

  const away = decision(tab);
  await link(tab, "Account").click();
  assert.equal((await away).survey, null, "picked on the account page");
  assert.equal(await tab.getByRole("dialog").count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the page's event button shows a survey published for that event", async () => {
  const { context, tab, problems, asks, decision: onLoad } = await openDemo("/?page=account");
  assert.equal(onLoad.survey, null, "a survey for an event was picked on page view");
  const next = decision(tab);
  await tab.getByRole("button", { name: "Send the event checkout" }).click();
  assert.equal((await next).survey?.title, "Checkout feedback");
  assert.equal(asks.at(-1).event, "checkout");
  await tab.getByRole("dialog", { name: "Checkout feedback" }).waitFor();
  await tab.getByRole("status").filter({ hasText: "Sent the event checkout" }).waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test("the demo survey opens from its button, by keyboard, and not by itself", async () => {
  const { context, tab, problems, decision: onLoad } = await openDemo("/");
  assert.equal(onLoad.survey, null, "svc picked a survey for the home page");
  // Once the page has nothing more to fetch, a survey shown on load would be on screen.
  await tab.waitForLoadState("networkidle");
  assert.equal(await tab.getByText("The widget needs JavaScript").isVisible(), false, "with script on");
  assert.equal(await tab.getByRole("dialog").count(), 0);
  await tab.getByRole("button", { name: "Show the demo survey" }).focus();
  await tab.keyboard.press("Enter");
  const dialog = tab.getByRole("dialog", { name: "How are we doing?" });
  await dialog.getByRole("heading", { name: "How likely are you to recommend us to a friend?" }).waitFor();
  assert.equal(await dialog.getAttribute("aria-modal"), "true", "a person's own press opens it as a dialog");
  assert.equal(await focusIn(tab), "SVC-SURVEY", "the focus moved into the survey the person opened");
  await tab.keyboard.press("Escape");
  await tab.getByRole("status").filter({ hasText: 'The demo survey closed: Svc.show resolved with {"outcome":"dismissed"}.' }).waitFor();
  assert.equal(await tab.getByRole("dialog").count(), 0);
  assert.deepEqual(problems, [], "errors, or something the page's policy refused");
  await context.close();
});

test("the visitor is kept in the browser until the page starts over as a new one", async () => {
  const { context, tab, asks } = await openDemo("/");
  const first = await tab.locator("#visitor").textContent();
  assert.match(first, /^visitor-[0-9a-f]{12}$/);
  assert.equal(asks[0].respondent, first);
  const reload = decision(tab);
  await tab.reload();
  await reload;
  assert.equal(await tab.locator("#visitor").textContent(), first, "a new visitor on reload");
  assert.equal(asks.at(-1).respondent, first);

  const asked = decision(tab);
  await tab.getByRole("button", { name: "Start over as a new visitor" }).click();
  await asked;
  const second = await tab.locator("#visitor").textContent();
  assert.notEqual(second, first);
  assert.equal(asks.at(-1).respondent, second, "the widget asks for the new visitor");
  await tab.getByRole("status").filter({ hasText: `Your visitor id is now ${second}` }).waitFor();
  await context.close();
});

test("without script the demo's pages still read and link, and say what the widget needs", async () => {
  await ready();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const tab = await context.newPage();
  const res = await tab.goto(`${demo}/?page=pricing`);
  assert.match(res.headers()["content-security-policy"], /script-src 'self'; style-src 'self'/);
  await tab.getByRole("heading", { name: "Pricing", level: 1 }).waitFor();
  await tab.getByText("The widget needs JavaScript").waitFor();
  assert.equal(await tab.getByRole("button").count(), 0, "buttons that do nothing without script");
  await tab.getByRole("link", { name: "console" }).waitFor();
  assert.equal((await tab.goto(`${demo}/?page=nothing`)).status(), 404);
  await tab.getByRole("heading", { name: "No such page", level: 1 }).waitFor();
  await context.close();
});

test("axe-core finds no violation on the demo page, wide or at 320 px, light or dark, with a survey on it", async () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 320, height: 640 }]) {
    for (const colorScheme of ["light", "dark"]) {
      // bypassCSP to inject axe; the page's policy is tested above. Reduced motion: axe reads
      // colours after a survey's fade-in, not in the middle of it.
      const { context, tab } = await openDemo("/?page=pricing", { bypassCSP: true, viewport, colorScheme, reducedMotion: "reduce" });
      const run = () => axeViolations(tab);
      const where = `${viewport.width} px, ${colorScheme}`;
      // The page and the pricing survey beside it, which appeared by itself: both are read.
      await tab.getByRole("heading", { name: "Pricing feedback: how was it?" }).waitFor();
      assert.deepEqual(await run(), [], `with the pricing survey, ${where}`);
      assert.ok(await tab.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `the page scrolls sideways at ${where}`);
      if (viewport.width === 320) {
        // The demo survey a person opened, as a dialog over the page (the widget's own screens
        // are checked in looks.test.mjs).
        await tab.getByRole("button", { name: "Show the demo survey" }).click();
        await tab.getByRole("heading", { name: "How likely are you to recommend us to a friend?" }).waitFor();
        assert.deepEqual(await run(), [], `with the demo survey, ${where}`);
      }
      await context.close();
    }
  }
});
