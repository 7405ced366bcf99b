// The widget's routing runs the cases the Go evaluator runs (survey/testdata/routing.json), so
// the browser and the server always agree on the next question.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { next, operandText, ordered, parseFloat } from "../.build/routing.mjs";

const file = JSON.parse(readFileSync(new URL("../../../survey/testdata/routing.json", import.meta.url)));

test("every shared routing case gives the Go evaluator's next question", () => {
  let ran = 0;
  for (const g of file.groups) {
    const questions = ordered(g.questions);
    for (const c of g.cases) {
      const got = next(questions, c.current, c.answers)?.id ?? null;
      assert.equal(got, c.want, `${g.name}: ${c.name}`);
      ran++;
    }
  }
  assert.ok(ran >= 50, `ran only ${ran} cases`);
});

test("an unknown question is an error, as in Go", () => {
  assert.throws(() => next(ordered(file.groups[0].questions), "nope", {}), /unknown question/);
});

test("numbers read and print as Go's strconv does", () => {
  for (const [s, want] of [["12", 12], [" -1.5e2 ", -150], [".5", 0.5], ["5.", 5], ["Inf", Infinity], ["-infinity", -Infinity]]) {
    assert.equal(parseFloat(s), want, s);
  }
  assert.ok(Number.isNaN(parseFloat("NaN")));
  for (const s of ["", " ", "0x10", "1_000", "1e", "five", "++1"]) assert.equal(parseFloat(s), null, JSON.stringify(s));
  for (const [f, want] of [[1.5, "1.5"], [1e21, "1000000000000000000000"], [1e-7, "0.0000001"], [-2.5e-8, "-0.000000025"], [123, "123"], [-0, "-0"]]) {
    assert.equal(operandText(f), want, String(f));
  }
});
