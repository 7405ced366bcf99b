// The words of widget/questions.js follow the survey's language and the page's labels as the
// widget's own words do (labels.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { words } from "../.build/words.mjs";

test("the rarer types' words: English by default, shipped languages by tag, labels over them", () => {
  assert.equal(words(null).thumbsUp, "Thumbs up");
  assert.equal(words(undefined, "de-AT").moveUp, "{item} nach oben");
  assert.equal(words(undefined, "ar").email, "البريد الإلكتروني");
  const w = words({ dismiss: "Later", moveUp: "", email: 3, unknown: "x" }, "fr");
  assert.equal(w.dismiss, "Later");
  assert.equal(w.moveUp, "Monter {item}", "an empty label keeps the default");
  assert.equal(w.email, "E-mail", "a label that is not a string keeps the default");
  assert.equal("unknown" in w, false);
  // labelsFor gives a language the widget does not ship; its gaps are English.
  const pt = words(undefined, "pt-BR", { pt: { dismiss: "Agora não" } });
  assert.equal(pt.dismiss, "Agora não");
  assert.equal(pt.phone, "Phone");
});

test("every shipped language has every word", () => {
  const keys = Object.keys(words(null));
  for (const lang of ["de", "fr", "es", "ar"]) {
    const w = words(null, lang);
    for (const k of keys) assert.ok(w[k] && typeof w[k] === "string", `${lang}.${k}`);
    assert.notEqual(w.moveUp, words(null).moveUp, `${lang} is not English`);
    assert.ok(w.moveUp.includes("{item}") && w.moved.includes("{n}") && w.moved.includes("{total}"), lang);
  }
});
