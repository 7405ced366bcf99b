// Accessibility checks by axe-core, a hostile host page, a strict Content-Security-Policy, a
// 320 px wide screen, theming and dark mode.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";
import { launch, open, outcome, respondent, saved, surveys } from "./helpers.mjs";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const heading = (tab, name) => tab.getByRole("heading", { name, exact: true }).waitFor();

// axe checks the widget (its shadow tree included) against WCAG 2.2 A and AA and axe's best
// practices, and returns the violations with the nodes they name.
async function axe(tab) {
  if (!(await tab.evaluate(() => "axe" in window))) await tab.addScriptTag({ path: axePath });
  return tab.evaluate(async () => {
    const r = await window.axe.run(
      { include: [["svc-survey"]] },
      { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] } },
    );
    return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
}

for (const scheme of ["light", "dark"]) {
  test(`axe-core finds no violation on any screen of the widget (${scheme})`, async () => {
    const checked = [];
    const check = async (tab, screen) => {
      assert.deepEqual(await axe(tab), [], `on ${screen}`);
      checked.push(screen);
    };
    const s = surveys.demo;
    let p = await open(browser, { survey: s, who: respondent("axe"), params: { scheme: "auto" } });
    await p.tab.emulateMedia({ colorScheme: scheme });
    await heading(p.tab, "How likely are you to recommend us to a friend?");
    await check(p.tab, "rating (nps)");
    await p.tab.getByRole("button", { name: "Next" }).click(); // required: the message shows
    await p.tab.getByRole("alert").filter({ hasText: /./ }).waitFor();
    await check(p.tab, "a required question's message");
    await p.tab.getByRole("radio", { name: "2", exact: true }).click();
    await heading(p.tab, "What would make it better?");
    await p.tab.getByRole("checkbox", { name: "Speed" }).check();
    await check(p.tab, "multi-select");
    await p.tab.getByRole("button", { name: "Next" }).click();
    await p.tab.getByRole("textbox").fill("a bug");
    await check(p.tab, "open-ended");
    await p.tab.getByRole("button", { name: "Next" }).click();
    await heading(p.tab, "Tell us about the bug");
    await check(p.tab, "bug report");
    await p.tab.getByRole("textbox", { name: "Title", exact: true }).fill("x");
    await p.tab.getByRole("button", { name: "Send" }).click();
    await heading(p.tab, "Thank you!");
    await check(p.tab, "confirmation");
    await p.context.close();

    p = await open(browser, { survey: s, who: respondent("axe"), params: { scheme: "auto" } });
    await p.tab.emulateMedia({ colorScheme: scheme });
    await p.tab.getByRole("radio", { name: "9", exact: true }).click();
    await p.tab.getByRole("radio", { name: "3", exact: true }).check();
    await check(p.tab, "rating (stars)");
    await p.tab.getByRole("button", { name: "Next" }).click();
    await heading(p.tab, "Which feature do you use most?");
    await check(p.tab, "single-select");
    await p.tab.getByRole("button", { name: "Next" }).click();
    await p.tab.getByRole("button", { name: "Next" }).click();
    await p.tab.getByRole("link", { name: "Read the changelog" }).waitFor();
    await check(p.tab, "statement");
    await p.context.close();
    assert.equal(checked.length, 9);
  });
}

// styleOf reads computed styles of elements inside the widget, by a selector in its shadow root.
const styleOf = (tab, selector, props) =>
  tab.evaluate(
    ([sel, names]) => {
      const el = document.querySelector("svc-survey").shadowRoot.querySelector(sel);
      const cs = getComputedStyle(el);
      return Object.fromEntries(names.map((n) => [n, cs.getPropertyValue(n)]));
    },
    [selector, props],
  );
const looks = ["color", "background-color", "font-family", "font-size", "display", "box-sizing"];

test("a hostile host page's CSS does not reach the widget, and the widget's does not leak out", async () => {
  const s = surveys.short;
  const clean = await open(browser, { survey: s, who: respondent("clean") });
  await heading(clean.tab, "How is your day?");
  const want = {
    box: await styleOf(clean.tab, ".box", looks),
    button: await styleOf(clean.tab, "button.button", looks),
    host: await clean.tab.evaluate(() => getComputedStyle(document.querySelector("svc-survey")).position),
  };
  // Nothing leaks out: the page's own button and text look the same with the widget or without.
  const pageLooks = () => clean.tab.evaluate(() => [document.querySelector("#own"), document.querySelector("p")].map((e) => getComputedStyle(e).cssText || JSON.stringify([...getComputedStyle(e)].map((k) => getComputedStyle(e).getPropertyValue(k)))));
  const withWidget = await pageLooks();
  await clean.tab.getByRole("button", { name: "Close" }).click();
  await outcome(clean.tab);
  assert.deepEqual(await pageLooks(), withWidget);
  await clean.context.close();

  const who = respondent("hostile");
  const { tab, context } = await open(browser, { survey: s, who, page: "hostile" });
  await heading(tab, "How is your day?");
  assert.deepEqual(await styleOf(tab, ".box", looks), want.box);
  assert.deepEqual(await styleOf(tab, "button.button", looks), want.button);
  assert.equal(await tab.evaluate(() => getComputedStyle(document.querySelector("svc-survey")).position), want.host);
  assert.ok(await tab.getByRole("dialog").isVisible());
  await tab.getByRole("radio", { name: "5", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByRole("radio", { name: "Free" }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByRole("button", { name: "Finish" }).click();
  await saved(s, who, { mood: 5, plan: "Free" }, true);
  await context.close();
});

test("works under a strict Content-Security-Policy, styles and all", async () => {
  const s = surveys.demo;
  const who = respondent("csp");
  const { tab, context, errors } = await open(browser, { survey: s, who, page: "csp" });
  await heading(tab, "How likely are you to recommend us to a friend?");
  const box = await styleOf(tab, ".box", ["border-top-style", "position"]);
  assert.deepEqual(box, { "border-top-style": "solid", position: "relative" }, "the widget's styles applied");
  await tab.getByRole("radio", { name: "4", exact: true }).click();
  await tab.getByRole("checkbox", { name: "Docs" }).check();
  await tab.getByRole("button", { name: "Next" }).click();
  await tab.getByRole("textbox").fill("bug: crash");
  await tab.getByRole("button", { name: "Next" }).click();
  await tab.getByRole("textbox", { name: "Title", exact: true }).fill("Crash");
  await tab.getByRole("checkbox", { name: "Include a screenshot" }).check();
  await tab.getByRole("button", { name: "Send" }).click();
  await heading(tab, "Thank you!");
  const r = await saved(s, who, { nps: 4, missing: ["Docs"] }, true);
  assert.equal(r.data.bug.title, "Crash");
  assert.equal(await tab.locator("#violations li").count(), 0, await tab.locator("#violations").textContent());
  assert.deepEqual(errors, []);
  await context.close();
});

test("usable 320 px wide: the dialog fits the screen and every control is reachable", async () => {
  const s = surveys.demo;
  const who = respondent("narrow");
  const { tab, context } = await open(browser, { survey: s, who, viewport: { width: 320, height: 568 } });
  const dialog = tab.getByRole("dialog", { name: "How are we doing?" });
  await dialog.waitFor();
  const b = await dialog.boundingBox();
  assert.ok(b.x >= 0 && b.x + b.width <= 320 && b.y >= 0 && b.y + b.height <= 568, JSON.stringify(b));
  // The NPS scale keeps one row, each of its eleven cells at least 24 px wide (WCAG 2.5.8).
  // Measured at one moment, as the dialog slides in.
  const cells = await tab.evaluate(() =>
    Array.from(document.querySelector("svc-survey").shadowRoot.querySelectorAll(".score"), (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width };
    }),
  );
  assert.equal(cells.length, 11);
  for (const [n, r] of cells.entries()) {
    assert.ok(r.x >= 0 && r.x + r.width <= 320 && r.width >= 24, `score ${n}: ${JSON.stringify(r)}`);
    assert.equal(r.y, cells[0].y, `score ${n} is on another row than 0: ${JSON.stringify(r)}`);
  }
  const overflow = await tab.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 320, `the page scrolls sideways: ${overflow}`);
  await tab.getByRole("radio", { name: "10", exact: true }).click();
  await tab.getByRole("radio", { name: "5", exact: true }).check();
  await tab.getByRole("button", { name: "Next" }).click();
  await saved(s, who, { nps: 10, stars: 5 });
  await context.close();
});

test("colorScheme: light by default whatever the system says, dark, or the system's with auto", async () => {
  const s = surveys.short;
  const white = { "background-color": "rgb(255, 255, 255)" };
  for (const [scheme, system, dark] of [[null, "dark", false], ["light", "dark", false], ["dark", "light", true], ["auto", "light", false], ["auto", "dark", true]]) {
    const { tab, context } = await open(browser, { survey: s, who: respondent("scheme"), params: scheme ? { scheme } : {} });
    await tab.emulateMedia({ colorScheme: system });
    await heading(tab, "How is your day?");
    const bg = await styleOf(tab, ".box", ["background-color"]);
    assert.equal(JSON.stringify(bg) !== JSON.stringify(white), dark, `colorScheme ${scheme} on a ${system} system: ${JSON.stringify(bg)}`);
    await context.close();
  }
  const { tab, context } = await open(browser, { survey: s, who: respondent("scheme"), params: { scheme: "sepia" } });
  await assert.rejects(outcome(tab), /colorScheme/);
  await context.close();
});

test("themed by custom properties and ::part", async () => {
  const s = surveys.short;
  const { tab, context } = await open(browser, { survey: s, who: respondent("theme") });
  await heading(tab, "How is your day?");
  await tab.addStyleTag({
    content: "svc-survey { --svc-accent: rgb(200, 0, 100); --svc-background: rgb(250, 240, 230); --svc-radius: 3px; --svc-font: monospace } svc-survey::part(title) { text-transform: uppercase }",
  });
  assert.deepEqual(await styleOf(tab, "button.button", ["background-color"]), { "background-color": "rgb(200, 0, 100)" });
  assert.deepEqual(await styleOf(tab, ".box", ["background-color", "border-top-left-radius", "font-family"]), {
    "background-color": "rgb(250, 240, 230)",
    "border-top-left-radius": "3px",
    "font-family": "monospace",
  });
  assert.deepEqual(await styleOf(tab, ".survey-title", ["text-transform"]), { "text-transform": "uppercase" });
  await tab.emulateMedia({ reducedMotion: "reduce" });
  assert.deepEqual(await styleOf(tab, ".box", ["animation-name"]), { "animation-name": "none" });
  await context.close();
});
