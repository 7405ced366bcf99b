// Routing in the browser, exactly as survey.Definition.Next does it in Go; both run the cases
// of survey/testdata/routing.json.
import type { Answer, Case, Question, Target } from "./types";

/** Questions in position order, as the Go evaluator expects them. */
export function ordered(questions: Question[]): Question[] {
  return [...questions].sort((a, b) => a.position - b.position);
}

/**
 * next returns the question shown after the question with id current, given the answers so far,
 * or null when the survey ends there. questions must be in position order.
 */
export function next(questions: Question[], current: string, answers: Record<string, Answer>): Question | null {
  const idx = questions.findIndex((q) => q.id === current);
  if (idx < 0) throw new Error(`unknown question "${current}"`);
  const q = questions[idx];
  let target: Target;
  if (q.routingLogic.type === "switch") {
    target = q.routingLogic.default;
    // A question without an answer matches no case.
    if (Object.prototype.hasOwnProperty.call(answers, q.id)) {
      const found = q.routingLogic.cases.find((c) => matches(c, answers[q.id]));
      if (found) target = found.target;
    }
  } else {
    target = q.routingLogic.target;
  }
  switch (target.type) {
    case "jump": {
      const position = target.target;
      return questions.slice(idx + 1).find((x) => x.position === position) ?? null;
    }
    case "end":
      return null;
    default:
      return questions[idx + 1] ?? null;
  }
}

/** matches reports whether a case's condition holds for an answer. */
export function matches(c: Case, a: Answer): boolean {
  const operand = c.value.value;
  if (typeof a === "number") {
    const n = typeof operand === "number" ? operand : parseFloat(operand);
    if (n === null) return c.operator === "not-equal" || c.operator === "not-contains";
    return compare(c.operator, cmpNumber(a, n), false);
  }
  if (typeof a === "string") {
    if (typeof operand === "number") {
      const f = parseFloat(a);
      if (f !== null) return compare(c.operator, cmpNumber(f, operand), false);
    }
    const v = operandText(operand);
    return compare(c.operator, cmpText(a, v), a.includes(v));
  }
  if (Array.isArray(a)) {
    const v = operandText(operand);
    const has = a.includes(v);
    const equal = a.length === 1 && a[0] === v;
    switch (c.operator) {
      case "equal":
        return equal;
      case "not-equal":
        return !equal;
      case "contains":
        return has;
      case "not-contains":
        return !has;
    }
    return false;
  }
  if (a !== null && typeof a === "object" && typeof a.title === "string") {
    const v = operandText(operand);
    return compare(c.operator, cmpText(a.title, v), a.title.includes(v));
  }
  return false;
}

function compare(op: string, cmp: number, contains: boolean): boolean {
  switch (op) {
    case "equal":
      return cmp === 0;
    case "not-equal":
      return cmp !== 0;
    case "greater":
      return cmp > 0;
    case "greater-or-equal":
      return cmp >= 0;
    case "less":
      return cmp < 0;
    case "less-or-equal":
      return cmp <= 0;
    case "contains":
      return contains;
    case "not-contains":
      return !contains;
  }
  return false;
}

// cmpNumber is Go's three-way comparison: NaN compares equal to everything, as there.
function cmpNumber(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

// cmpText orders strings by code point, as Go's byte-wise comparison of UTF-8 does (JavaScript's
// own < compares UTF-16 code units, which differs above U+FFFF).
function cmpText(a: string, b: string): number {
  const x = Array.from(a, (ch) => ch.codePointAt(0)!);
  const y = Array.from(b, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return cmpNumber(x.length, y.length);
}

const decimal = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const special = /^[+-]?(inf|infinity|nan)$/i;

/**
 * parseFloat reads a number as Go's strconv.ParseFloat does after strings.TrimSpace, or returns
 * null: JavaScript's Number() would also take "", "0x10" and "1_0".
 */
export function parseFloat(s: string): number | null {
  const t = s.trim();
  if (decimal.test(t)) return Number(t);
  if (special.test(t)) {
    if (/nan/i.test(t)) return NaN;
    return t.startsWith("-") ? -Infinity : Infinity;
  }
  return null;
}

/** operandText is a case value as text: numbers as Go's strconv.FormatFloat(f, 'f', -1, 64). */
export function operandText(v: string | number): string {
  if (typeof v === "string") return v;
  return formatFloat(v);
}

function formatFloat(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "+Inf" : "-Inf";
  const s = String(f);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s === "-0" ? "-0" : Object.is(f, -0) ? "-0" : s;
  const [, sign, lead, frac = "", exp] = m;
  const digits = lead + frac;
  const point = 1 + Number(exp); // where the decimal point goes in digits
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * resumeAt returns the questions a person has passed given answers they already gave (a link's,
 * or a response continued), as the path of Progress: from the first question along the route,
 * ending at the first question without an answer (or the last).
 */
export function resumeAt(questions: Question[], answers: Record<string, Answer>): string[] {
  const path: string[] = [];
  for (let q: Question | null = questions[0] ?? null; q; q = q.id in answers ? next(questions, q.id, answers) : null) {
    path.push(q.id);
  }
  return path;
}
