// Retry decisions and waits of the outbox, and the widget's words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { backoff, retryable } from "../.build/api.mjs";
import { defaultLabels, mergeLabels } from "../.build/labels.mjs";

test("network errors, 408, 429 and 5xx are retried; other refusals are not", () => {
  for (const s of [0, 408, 429, 500, 502, 503, 504]) assert.equal(retryable(s), true, String(s));
  for (const s of [400, 401, 403, 404, 409, 413, 415, 422]) assert.equal(retryable(s), false, String(s));
});

test("backoff doubles from about a second up to 30 s, and Retry-After wins when given", () => {
  const low = () => 0;
  const high = () => 0.999999;
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 10].map((n) => backoff(n, null, low)), [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
  assert.deepEqual([1, 2, 6, 10].map((n) => Math.round(backoff(n, null, high))), [1000, 2000, 30000, 30000]);
  assert.equal(backoff(1, "7", low), 7000);
  assert.equal(backoff(1, "0", low), 0);
  assert.equal(backoff(1, "100000", low), 300000, "a Retry-After past five minutes is capped");
  const at = new Date(Date.now() + 5000).toUTCString();
  const wait = backoff(1, at, low);
  assert.ok(wait > 3000 && wait <= 5000, `Retry-After as a date: ${wait}`);
  assert.equal(backoff(3, "soon", low), 2000, "an unreadable Retry-After falls back to the backoff");
});

test("labels replace the widget's words one by one; anything else keeps the default", () => {
  const l = mergeLabels({ close: "Schließen", screenshot: "", bugTitle: 3, unknown: "x" });
  assert.equal(l.close, "Schließen");
  assert.equal(l.screenshot, defaultLabels.screenshot);
  assert.equal(l.bugTitle, "Title");
  assert.equal("unknown" in l, false);
  assert.deepEqual(mergeLabels(null), defaultLabels);
});
