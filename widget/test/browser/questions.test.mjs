// Every question type completed by roles and accessible names, routing, progressive saving and
// back navigation, as a person with a screen reader, or a test, finds the widget.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launch, open, outcome, respondent, saved, surveys } from "./helpers.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const heading = (tab, name) => tab.getByRole("heading", { name, exact: true }).waitFor();

test("a detractor's path: rating, multi-select, open-ended and bug report, saved after each question", async () => {
  const who = respondent("detractor");
  const s = surveys.demo;
  const { tab, context, errors, events } = await open(browser, { survey: s, who, gesture: "click" });
  const dialog = tab.getByRole("dialog", { name: "How are we doing?" });
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute("aria-modal"), "true");

  // nps: radios "0" to "10" in a radiogroup named by the question; auto-progress on a choice.
  const nps = tab.getByRole("radiogroup", { name: "How likely are you to recommend us to a friend?" });
  const names = await nps.getByRole("radio").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  assert.deepEqual(names, ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
  await tab.getByText("Not likely").waitFor();
  await tab.getByText("Very likely").waitFor();
  await nps.getByRole("radio", { name: "3", exact: true }).click();
  // less-or-equal 6 jumps to position 3, the multi-select.
  await heading(tab, "What would make it better?");
  await saved(s, who, { nps: 3 });

  const boxes = tab.getByRole("checkbox");
  assert.deepEqual(await boxes.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))), ["Speed", "Price", "Integrations", "Docs"]);
  for (const v of ["Speed", "Price", "Docs"]) await tab.getByRole("checkbox", { name: v }).check();
  // max is 3: the fourth cannot be chosen.
  assert.equal(await tab.getByRole("checkbox", { name: "Integrations" }).isDisabled(), true);
  await tab.getByRole("button", { name: "Next" }).click();
  await heading(tab, "Anything else you would like to tell us?");
  await saved(s, who, { nps: 3, missing: ["Speed", "Price", "Docs"] });

  const comments = tab.getByRole("textbox", { name: "Anything else you would like to tell us?" });
  assert.equal(await comments.getAttribute("placeholder"), "Type here");
  assert.equal(await comments.getAttribute("maxlength"), "1000");
  assert.equal(await comments.evaluate((e) => e.tagName), "TEXTAREA");
  await comments.fill("I found a bug in exports");
  await tab.getByRole("button", { name: "Next" }).click();
  // contains "bug" jumps to the bug report.
  await heading(tab, "Tell us about the bug");
  await saved(s, who, { comments: "I found a bug in exports" });

  await tab.getByRole("textbox", { name: "Title", exact: true }).fill("Export fails");
  const details = tab.getByRole("textbox", { name: "What happened?" });
  assert.equal(await details.getAttribute("placeholder"), "Steps to reproduce");
  await details.fill("Click export, nothing happens");
  await tab.getByRole("checkbox", { name: "Include a screenshot" }).check();
  await tab.getByRole("checkbox", { name: "Include a recording of this page" }).check();
  await tab.getByRole("button", { name: "Send" }).click();

  await heading(tab, "Thank you!");
  await tab.getByText("Your feedback was sent.").waitFor();
  const r = await saved(s, who, { nps: 3, missing: ["Speed", "Price", "Docs"], comments: "I found a bug in exports" }, true);
  const bug = r.data.bug;
  assert.equal(bug.title, "Export fails");
  assert.equal(bug.description, "Click export, nothing happens");
  const meta = JSON.parse(bug.metadata);
  assert.match(meta.url, /\/test\/page\.html/);
  assert.ok(meta.userAgent && meta.viewport.width > 0 && !Number.isNaN(Date.parse(meta.time)), bug.metadata);
  assert.match(bug.screenshotDataUrl, /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]{1000,}/);
  const recorded = JSON.parse(bug.recordingEventsJson);
  assert.ok(Array.isArray(recorded) && recorded.some((e) => e.type === 2), "the recording holds a full snapshot");
  // The widget adds url, userAgent and language to the page's own metadata.
  assert.equal(r.clientMetadata.page, "test");
  assert.match(r.clientMetadata.url, /\/test\/page\.html/);
  assert.ok(r.clientMetadata.userAgent && r.clientMetadata.language, JSON.stringify(r.clientMetadata));
  assert.match(r.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

  // The confirmation's button closes the widget; Svc.show resolves with the response.
  assert.equal(await tab.getByRole("button", { name: "Close" }).count(), 1, "only the confirmation's button is named Close");
  await tab.getByRole("button", { name: "Close" }).click();
  assert.deepEqual(await outcome(tab), { outcome: "completed", responseId: r.id });
  assert.equal(await tab.locator("svc-survey").count(), 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(events, ["view"], "one view, and no dismissal after completing");
  await context.close();
});

test("a promoter's path: star rating, single-select with its own text, statement link, end", async () => {
  const who = respondent("promoter");
  const s = surveys.demo;
  const { tab, context } = await open(browser, { survey: s, who });
  await tab.getByRole("radio", { name: "10", exact: true }).click();
  await heading(tab, "How would you rate the new dashboard?");
  await tab.getByText("One star is poor, five is great.").waitFor();
  const stars = tab.getByRole("radiogroup", { name: "How would you rate the new dashboard?" });
  assert.equal(await stars.getByRole("radio").count(), 5);
  await stars.getByRole("radio", { name: "4", exact: true }).check();
  // No auto-progress on this one: the choice waits for Next.
  await tab.getByRole("button", { name: "Next" }).click();
  await heading(tab, "Which feature do you use most?");
  for (const v of ["Reports", "Alerts", "Exports"]) await tab.getByRole("radio", { name: v, exact: true }).waitFor();
  // Choosing moves on by itself (shouldAutoProgress); going back shows the choice kept.
  await tab.getByRole("radio", { name: "Alerts", exact: true }).click();
  await heading(tab, "Anything else you would like to tell us?");
  await saved(s, who, { favourite: "Alerts" });
  await tab.getByRole("button", { name: "Back" }).click();
  await heading(tab, "Which feature do you use most?");
  assert.equal(await tab.getByRole("radio", { name: "Alerts", exact: true }).isChecked(), true);
  // Text in the editable field is the answer instead of the option.
  await tab.getByRole("textbox", { name: "Something else" }).fill("Webhooks");
  assert.equal(await tab.getByRole("radio", { name: "Alerts", exact: true }).isChecked(), false);
  await tab.getByRole("button", { name: "Next" }).click();
  // always jump to position 4, past the multi-select.
  await heading(tab, "Anything else you would like to tell us?");
  await saved(s, who, { nps: 10, stars: 4, favourite: "Webhooks" });
  await tab.getByRole("textbox", { name: "Anything else you would like to tell us?" }).fill("All good");
  await tab.getByRole("button", { name: "Next" }).click();

  await heading(tab, "Thanks! Our changelog lists what we shipped this month.");
  const link = tab.getByRole("link", { name: "Read the changelog" });
  assert.equal(await link.getAttribute("href"), "https://example.com/changelog");
  assert.equal(await link.getAttribute("target"), "_blank");
  // Following the link would leave this machine: check where it goes, and go on with the keyboard
  // without letting the browser open it.
  await tab.route("https://example.com/**", (route) => route.abort());
  const popup = context.waitForEvent("page");
  await link.click();
  await (await popup).close();
  await heading(tab, "Thank you!");
  const r = await saved(s, who, { nps: 10, stars: 4, favourite: "Webhooks", comments: "All good" }, true);
  assert.equal(Object.keys(r.data).length, 4, JSON.stringify(r.data));
  await context.close();
});

test("required questions, back navigation keeping answers, and the confirmation", async () => {
  const who = respondent("back");
  const s = surveys.short;
  const { tab, context } = await open(browser, { survey: s, who });
  await heading(tab, "How is your day?");
  assert.equal(await tab.getByRole("button", { name: "Previous" }).count(), 0, "no back button on the first question");
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByRole("alert").filter({ hasText: "Please answer this question to go on." }).waitFor();
  await heading(tab, "How is your day?");
  await tab.getByRole("radio", { name: "4", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await heading(tab, "Which plan are you on?");
  await tab.getByRole("radio", { name: "Team" }).check();
  await tab.getByRole("button", { name: "Previous" }).click();
  await heading(tab, "How is your day?");
  assert.equal(await tab.getByRole("radio", { name: "4", exact: true }).isChecked(), true);
  await tab.getByRole("button", { name: "Continue" }).click();
  assert.equal(await tab.getByRole("radio", { name: "Team" }).isChecked(), true);
  await tab.getByRole("button", { name: "Continue" }).click();
  await heading(tab, "One wish for us?");
  await tab.getByRole("button", { name: "Finish" }).click(); // optional: passed empty
  await heading(tab, "Thanks a lot");
  await tab.getByText("We read every answer.").waitFor();
  const r = await saved(s, who, { mood: 4, plan: "Team" }, true);
  assert.equal("wish" in r.data, false);
  await tab.getByRole("button", { name: "Done" }).click();
  assert.equal((await outcome(tab)).outcome, "completed");
  await context.close();
});

test("a reload continues the same response where it was", async () => {
  const who = respondent("reload");
  const s = surveys.short;
  const { tab, context } = await open(browser, { survey: s, who });
  await tab.getByRole("radio", { name: "2", exact: true }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await heading(tab, "Which plan are you on?");
  const first = await saved(s, who, { mood: 2 });
  await tab.reload();
  await heading(tab, "Which plan are you on?");
  await tab.getByRole("radio", { name: "Enterprise" }).check();
  await tab.getByRole("button", { name: "Continue" }).click();
  await tab.getByRole("button", { name: "Finish" }).click();
  const r = await saved(s, who, { mood: 2, plan: "Enterprise" }, true);
  assert.equal(r.id, first.id);
  // Finished: the same page again skips it, since this person has responded.
  await tab.reload();
  assert.deepEqual(await outcome(tab), { outcome: "skipped" });
  assert.equal(await tab.locator("svc-survey").count(), 0);
  await context.close();
});

test("a bug report's screenshot and recording mask the elements of redactClasses", async () => {
  const who = respondent("redact");
  const s = surveys.bug;
  const { tab, context } = await open(browser, { survey: s, who });
  await heading(tab, "What went wrong?");
  await tab.getByRole("textbox", { name: "Title", exact: true }).fill("Leak check");
  await tab.getByRole("textbox", { name: "Details" }).fill("See the page");
  await tab.getByRole("checkbox", { name: "Include a screenshot" }).check();
  await tab.getByRole("checkbox", { name: "Include a recording of this page" }).check();
  await tab.getByRole("button", { name: "Send report" }).click();
  await heading(tab, "Report sent");
  const r = await saved(s, who, {}, true);
  const bug = r.data.report;
  assert.ok(!bug.recordingEventsJson.includes("a secret it must not leak"), "the recording holds the secret text");
  assert.ok(bug.recordingEventsJson.includes("Some text of the page"), "the recording holds the page");
  // The screenshot is black where the secret was (the page paints it yellow), and not elsewhere.
  const [secret, plain] = await tab.evaluate(async (url) => {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.width;
    canvas.height = img.height;
    const g = canvas.getContext("2d");
    g.drawImage(img, 0, 0);
    const scale = img.width / document.documentElement.clientWidth;
    // A point at the top left of an element's box, above its text.
    const at = (el) => {
      const b = el.getBoundingClientRect();
      return Array.from(g.getImageData(Math.round((b.x + 2) * scale), Math.round((b.y + 2) * scale), 1, 1).data.slice(0, 3));
    };
    return [at(document.querySelector(".secret")), at(document.querySelector("main"))];
  }, bug.screenshotDataUrl);
  assert.ok(secret.every((c) => c < 40), `the secret's pixel is ${secret}, not black`);
  assert.ok(plain.some((c) => c > 200), `the page's pixel is ${plain}: its background was not drawn`);
  await context.close();
});
