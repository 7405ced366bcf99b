// Every language, every channel (docs/languages-and-links.md): a translated survey in the
// browser's language and in a right-to-left one, and a link page from an e-mail answered end to
// end on a phone, with no publishable key on the page.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, test } from "node:test";
import { axeViolations, base, launch, open, pk, respondent, responses, saved, sk, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

test("a translated survey speaks the browser's language, German, and saves option values", async () => {
  const s = surveys.langs;
  const who = respondent("german");
  const context = await browser.newContext({ locale: "de-DE" });
  const tab = await context.newPage();
  const q = new URLSearchParams({ survey: s.id, pk, respondent: who });
  await tab.goto(`${base}/test/page.html?${q}`);
  const dialog = tab.getByRole("dialog", { name: "Wie war Ihr Besuch?" });
  await dialog.getByRole("heading", { name: "Welche Funktion nutzen Sie am meisten?" }).waitFor();
  assert.equal(await dialog.getAttribute("lang"), "de");
  // The widget's own words come in the survey's language too.
  await dialog.getByRole("button", { name: "Schließen" }).waitFor();
  await dialog.getByRole("radio", { name: "Berichte" }).check();
  await dialog.getByRole("button", { name: "Weiter" }).click();
  await dialog.getByRole("heading", { name: "Würden Sie uns weiterempfehlen?" }).waitFor();
  await dialog.getByText("Unwahrscheinlich").waitFor();
  await dialog.getByRole("radio", { name: "9", exact: true }).check();
  await dialog.getByRole("button", { name: "Abschließen" }).click();
  await dialog.getByRole("heading", { name: "Vielen Dank!" }).waitFor();
  const r = await saved(s, who, { feature: "Reports", nps: 9 }, true);
  assert.equal(r.language, "de");
  await context.close();
});

test("an Arabic survey is laid out right to left, and is accessible", async () => {
  const s = surveys.langs;
  const who = respondent("arabic");
  const { tab, context, errors } = await open(browser, { survey: s, who, params: { lang: "ar-EG", inline: "1" }, viewport: { width: 320, height: 640 } });
  const region = tab.getByRole("region", { name: "كيف كانت زيارتك؟" });
  await region.getByRole("heading", { name: "ما الميزة التي تستخدمها أكثر؟" }).waitFor();
  const radio = region.getByRole("radio", { name: "التنبيهات" });
  assert.equal(await radio.evaluate((el) => getComputedStyle(el).direction), "rtl");
  // Right to left: the close button, at the end of the line, is on the left of the title.
  const close = await region.getByRole("button", { name: "إغلاق" }).boundingBox();
  const title = await region.getByText("كيف كانت زيارتك؟").first().boundingBox();
  assert.ok(close.x < title.x + title.width / 2, `close at ${close.x}, title at ${title.x}–${title.x + title.width}`);
  assert.deepEqual(await axeViolations(tab), []);
  assert.ok((await tab.evaluate(() => document.documentElement.scrollWidth)) <= 320, "the page scrolls sideways");
  await radio.check();
  await region.getByRole("button", { name: "التالي" }).click();
  await region.getByRole("heading", { name: "هل تنصح بنا؟" }).waitFor();
  const r = await saved(s, who, { feature: "Alerts" });
  assert.equal(r.language, "ar");
  assert.deepEqual(errors, []);
  await context.close();
});

test("Svc.init shows the survey svc picks in the language it is given", async () => {
  const who = respondent("init-lang");
  const context = await browser.newContext({ locale: "en-US" });
  const tab = await context.newPage();
  await tab.goto(`${base}/test/targeted.html?${new URLSearchParams({ pk, respondent: who, target: "lang", lang: "ar" })}`);
  const dialog = tab.getByRole("dialog", { name: "كيف كانت زيارتك؟" });
  await dialog.getByRole("radio", { name: "التقارير" }).waitFor();
  assert.equal(await dialog.getAttribute("dir"), "rtl");
  await context.close();
});

// sign makes a link as a team's backend in any language would: here Node's crypto, not svc's.
function sign(secret, surveyId, who, exp) {
  const sig = createHmac("sha256", secret).update(`${surveyId}\n${who}\n${exp}`).digest("hex");
  return `${base}/s/${surveyId}?${new URLSearchParams({ r: who, exp: String(exp), sig })}`;
}

test("a link from an e-mail: one click scores, the page on a phone asks the rest, one response", async () => {
  const s = surveys.link;
  const res = await fetch(`${base}/v1/protected/settings/link-secret`, { method: "POST", headers: { Authorization: `Bearer ${sk}` } });
  assert.equal(res.status, 200);
  const { data } = await res.json();
  const who = respondent("mail");
  const link = sign(data.secret, s.id, who, Math.floor(Date.now() / 1000) + 3600);

  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  const tab = await context.newPage();
  const problems = [];
  tab.on("pageerror", (e) => problems.push(e.message));
  tab.on("console", (m) => /Content Security Policy|Refused/.test(m.text()) && problems.push(m.text()));
  await tab.goto(`${link}&a.nps=9`);
  // The score was saved by the click; the page goes on with the next question.
  await saved(s, who, { nps: 9 });
  const region = tab.getByRole("region", { name: "Your renewal" });
  await region.getByRole("heading", { name: "What is the main reason for your score?" }).waitFor();
  assert.ok((await tab.evaluate(() => document.documentElement.scrollWidth)) <= 320, "the page scrolls sideways");
  await region.getByRole("textbox", { name: "What is the main reason for your score?" }).fill("Quick support");
  await region.getByRole("button", { name: "Send" }).click();
  await region.getByRole("heading", { name: "Thank you" }).waitFor();
  const r = await saved(s, who, { nps: 9, why: "Quick support" }, true);
  assert.equal(r.clientMetadata.channel, "link");
  await region.getByRole("button", { name: "Close" }).click();
  await tab.getByRole("status").filter({ hasText: "Thank you. You can close this page." }).waitFor();

  // Opened again, the same link says it was answered, and makes no second response.
  await tab.goto(link);
  await tab.getByRole("heading", { name: "Thank you" }).waitFor();
  await tab.getByText("You have answered this survey already.").waitFor();
  assert.equal((await responses(s, who)).length, 1);

  // A tampered link shows no survey, and says why.
  // Its signature's first digit changed (to another digit, whatever it was).
  const page = await tab.goto(link.replace(/sig=(.)/, (_, c) => `sig=${c === "0" ? "1" : "0"}`));
  assert.equal(page.status(), 403);
  await tab.getByRole("heading", { name: "This link is not valid" }).waitFor();
  assert.deepEqual(problems, [], "no error, and nothing the page's strict policy refused");
  await context.close();

  // axe-core, which a test injects, needs the policy set aside.
  const checked = await browser.newContext({ viewport: { width: 320, height: 640 }, bypassCSP: true });
  const other = await checked.newPage();
  await other.goto(sign(data.secret, s.id, respondent("axe"), Math.floor(Date.now() / 1000) + 3600));
  await other.getByRole("heading", { name: "How likely are you to recommend us?" }).waitFor();
  assert.deepEqual(await axeViolations(other), []);
  await other.goto(`${base}/s/${s.id}`); // unsigned: a page that says why
  await other.getByRole("heading", { name: "This survey needs a personal link" }).waitFor();
  assert.deepEqual(await axeViolations(other), []);
  await checked.close();
});
