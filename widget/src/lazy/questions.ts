// widget/questions.js: the question types few surveys have (matrix, ranking, date, consent, call
// to action, contact) and the thumbs rating, loaded only by a survey that has one, so that
// widget.js stays small for every other survey. Each control has the role and accessible name
// docs/widget.md lists for it.
import { h, uid } from "../dom";
import type { Answer, Choice, ContactProperties, CTAProperties, MatrixProperties, Question, RankingProperties } from "../types";
import type { Context, Controls, Hooks, More } from "../view";
import { words, type Words } from "./words";

const css = `
.row { border: 0; margin: 0 0 10px; padding: 0; }
.row > p { margin: 0 0 4px; font-weight: 500; }
.cells { display: flex; flex-wrap: wrap; gap: 4px; }
.cells .choice { margin: 0; padding: 6px 10px; align-items: center; }
.rank { list-style: none; margin: 4px 0; padding: 0; }
.rank li { display: flex; align-items: center; gap: 6px; padding: 6px 8px; margin: 0 0 6px;
  border: 1px solid var(--_line); border-radius: calc(var(--_radius) * 0.6); }
.rank li > span { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.rank .n { flex: none; min-width: 1.5em; font-weight: 600; color: var(--_muted); }
.move { font: 16px/1 var(--_font); min-width: 32px; min-height: 32px; border: 1px solid var(--_line);
  border-radius: calc(var(--_radius) * 0.6); background: var(--_bg); color: var(--_text); cursor: pointer; }
.move:disabled { opacity: 0.4; cursor: default; }
input[type="date"], input[type="email"], input[type="tel"] {
  width: 100%; font: inherit; color: var(--_text); background: var(--_bg); color-scheme: light dark;
  border: 1px solid var(--_line); border-radius: calc(var(--_radius) * 0.6); padding: 8px 10px;
}
.thumbs { display: flex; gap: 8px; margin: 4px 0; }
.thumb { flex: 1; font: 24px/1 var(--_font); padding: 8px 0; border: 1px solid var(--_line);
  border-radius: calc(var(--_radius) * 0.6); background: var(--_bg); color: var(--_text); cursor: pointer; }
.thumb[aria-pressed="true"] { background: var(--_accent); border-color: var(--_accent); color: var(--_bg); }
`;

/** more gives root the styles of these types, and returns their renderer with the words of
 * words (the labels option, the language, labelsFor). */
export function more(root: ShadowRoot, given: unknown[]): More {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  const w = words(given[0], given[1] as string | undefined, given[2]);
  return {
    controls(q, prior, hooks, cx) {
      const p = q.properties;
      switch (p.type) {
        case "rating":
          return p.display === "thumbs" ? thumbs(q, prior, hooks, cx, w) : null;
        case "matrix":
          return matrix(q, p, prior, cx, w);
        case "ranking":
          return ranking(q, p, prior, cx, w);
        case "date":
          return date(q, p.min, p.max, prior, cx);
        case "consent":
          return consent(p.label, prior, cx);
        case "cta":
          return cta(p, hooks, w);
        case "contact":
          return contact(p, prior, cx, w);
      }
      return null;
    },
  };
}

// describe gives el the question's descriptions and, where its role allows, its requirement.
function describe(el: HTMLElement, cx: Context, requirable = true): void {
  if (cx.describedBy.length) el.setAttribute("aria-describedby", cx.describedBy.join(" "));
  if (cx.required && requirable) el.setAttribute("aria-required", "true");
}

const text = (c: Choice) => c.label || c.value;
const titleId = (q: Question) => `svc-q-${q.position}`;

// thumbs is a rating of scale 2 as two toggle buttons: 1 is thumbs down, 2 thumbs up. A press
// chooses; with shouldAutoProgress it also moves on.
function thumbs(q: Question, prior: Answer | undefined, hooks: Hooks, cx: Context, w: Words): Controls {
  let value = typeof prior === "number" ? prior : undefined;
  const group = h("div", { role: "group", "aria-labelledby": titleId(q), class: "thumbs", part: "scale" });
  describe(group, cx, false);
  const buttons = [
    [2, w.thumbsUp, "👍"],
    [1, w.thumbsDown, "👎"],
  ].map(([v, name, face]) => {
    const b = h("button", { type: "button", class: "thumb", part: "score", "aria-label": name, "aria-pressed": String(value === v) }, face as string);
    b.addEventListener("click", () => {
      value = v as number;
      buttons.forEach((x) => x.setAttribute("aria-pressed", String(x === b)));
      if (q.properties.type === "rating" && q.properties.shouldAutoProgress) hooks.autoProgress();
    });
    group.append(b);
    return b;
  });
  return { nodes: [group], answer: async () => value };
}

// matrix is a radio group per row, named by the row, of a radio per column named by the column.
function matrix(q: Question, p: MatrixProperties, prior: Answer | undefined, cx: Context, w: Words): Controls {
  const before = prior && typeof prior === "object" && !Array.isArray(prior) ? (prior as Record<string, string>) : {};
  const box = h("div", { role: "group", "aria-labelledby": titleId(q), part: "options" });
  describe(box, cx, false);
  const rows = p.rows.map((r) => {
    const name = uid("mx");
    const label = h("p", { id: uid("mr") }, text(r));
    const group = h("div", { role: "radiogroup", "aria-labelledby": label.id, class: "cells" });
    if (cx.required) group.setAttribute("aria-required", "true");
    const inputs = p.columns.map((c) => {
      const input = h("input", { type: "radio", name, value: c.value, checked: before[r.value] === c.value });
      group.append(h("label", { class: "choice", part: "option" }, input, h("span", {}, text(c))));
      return input;
    });
    box.append(h("div", { class: "row" }, label, group));
    return [r.value, inputs] as const;
  });
  return {
    nodes: [box],
    answer: async () => {
      const out: Record<string, string> = {};
      for (const [row, inputs] of rows) {
        const chosen = inputs.find((i) => i.checked);
        if (chosen) out[row] = chosen.value;
      }
      return Object.keys(out).length ? out : undefined;
    },
    // A required matrix needs every row, as the server checks.
    problem: () => (cx.required && rows.some(([, inputs]) => !inputs.some((i) => i.checked)) ? w.everyRow : undefined),
  };
}

// ranking is an ordered list, each option with Move up and Move down buttons named by it; each
// move is announced. The order is the answer once the person moved one, or went on from a
// required ranking (which accepts the order shown).
function ranking(q: Question, p: RankingProperties, prior: Answer | undefined, cx: Context, w: Words): Controls {
  const known = new Map(p.options.map((o) => [o.value, o]));
  const start = Array.isArray(prior) ? prior.filter((v) => known.has(v)) : [];
  let order = [...start, ...p.options.map((o) => o.value).filter((v) => !start.includes(v))];
  let moved = start.length > 0;
  const list = h("ol", { class: "rank", "aria-labelledby": titleId(q), part: "options" });
  describe(list, cx, false);
  const hint = h("p", { class: "hint", id: uid("rh") }, w.rankHint);
  list.setAttribute("aria-describedby", [hint.id, ...cx.describedBy].join(" "));
  const live = h("p", { class: "visually-hidden", role: "status" });
  const draw = (focus?: string, dir?: number) => {
    list.replaceChildren(
      ...order.map((v, i) => {
        const name = text(known.get(v)!);
        const button = (dir: -1 | 1) => {
          const b = h("button", { type: "button", class: "move", "data-dir": dir, "aria-label": (dir < 0 ? w.moveUp : w.moveDown).replace("{item}", name), disabled: dir < 0 ? i === 0 : i === order.length - 1 }, dir < 0 ? "↑" : "↓");
          b.addEventListener("click", () => {
            const j = i + dir;
            order = [...order];
            [order[i], order[j]] = [order[j], order[i]];
            moved = true;
            draw(v, dir);
            live.textContent = w.moved.replace("{item}", name).replace("{n}", String(j + 1)).replace("{total}", String(order.length));
          });
          return b;
        };
        return h("li", { part: "option", "data-value": v }, h("span", { class: "n", "aria-hidden": "true" }, `${i + 1}.`), h("span", {}, name), button(-1), button(1));
      }),
    );
    // The focus stays on the moved option's button, or on its other one at an end.
    const li = focus === undefined ? null : list.children[order.indexOf(focus)];
    if (li) {
      const [up, down] = Array.from(li.querySelectorAll("button"));
      const b = dir! < 0 ? up : down;
      (b.disabled ? (b === up ? down : up) : b).focus();
    }
  };
  draw();
  return { nodes: [hint, list, live], answer: async () => (moved || cx.required ? order : undefined) };
}

function date(q: Question, min: string | null | undefined, max: string | null | undefined, prior: Answer | undefined, cx: Context): Controls {
  const input = h("input", { type: "date", "aria-labelledby": titleId(q), min: min ?? null, max: max ?? null, part: "textbox" });
  describe(input, cx);
  input.value = typeof prior === "string" ? prior : "";
  return {
    nodes: [input],
    answer: async () => input.value || undefined,
    problem: () => (input.value && !input.checkValidity() ? input.validationMessage : undefined),
  };
}

function consent(label: string, prior: Answer | undefined, cx: Context): Controls {
  const box = h("input", { type: "checkbox", id: uid("cs"), checked: prior === true });
  describe(box, cx);
  return { nodes: [h("div", { class: "check" }, box, h("label", { for: box.id }, label))], answer: async () => (box.checked ? true : undefined) };
}

// cta's two buttons answer and move on: the action (opening url in a new tab when set) and the
// dismissal.
function cta(p: CTAProperties, hooks: Hooks, w: Words): Controls {
  let value: string | undefined;
  const button = (answer: string, label: string, secondary: boolean) => {
    const b = h("button", { type: "button", class: secondary ? "button secondary" : "button", part: secondary ? "button" : "button primary" }, label);
    b.addEventListener("click", () => {
      if (answer === "clicked" && p.url && /^https?:\/\//i.test(p.url)) window.open(p.url, "_blank", "noopener");
      value = answer;
      hooks.autoProgress();
    });
    return b;
  };
  return {
    nodes: [],
    answer: async () => value,
    actions: [button("dismissed", p.dismissLabel || w.dismiss, true), button("clicked", p.buttonLabel, false)],
  };
}

const contactInput: Record<string, [string, string]> = {
  name: ["text", "name"],
  email: ["email", "email"],
  phone: ["tel", "tel"],
  company: ["text", "organization"],
  address: ["text", "street-address"],
};

// contact is a named text field per field asked for, of the type and autocomplete of its kind;
// e-mail and phone are checked as the server checks them before they are sent.
function contact(p: ContactProperties, prior: Answer | undefined, cx: Context, w: Words): Controls {
  const before = prior && typeof prior === "object" && !Array.isArray(prior) ? (prior as Record<string, string>) : {};
  const nodes: Node[] = [];
  const inputs = p.fields.map((f) => {
    const [type, autocomplete] = contactInput[f.id];
    const input = h("input", { type, id: uid("ct"), autocomplete, maxlength: f.id === "email" ? 254 : 500, part: "textbox" });
    describe(input, { describedBy: cx.describedBy, required: !!f.required });
    input.value = before[f.id] ?? "";
    nodes.push(h("label", { for: input.id, class: "field" }, w[f.id] + (f.required ? " *" : "")), input);
    return [f, input] as const;
  });
  return {
    nodes,
    answer: async () => {
      const out: Record<string, string> = {};
      for (const [f, input] of inputs) if (input.value.trim()) out[f.id] = input.value.trim();
      return Object.keys(out).length ? out : undefined;
    },
    problem: () => {
      for (const [f, input] of inputs) {
        const v = input.value.trim();
        let bad = "";
        if (!v && f.required && (cx.required || inputs.some(([, i]) => i.value.trim()))) bad = w.fieldRequired;
        else if (v && f.id === "email" && !/^[^\s@<>()]+@[^\s@.<>()]+(\.[^\s@.<>()]+)+$/.test(v)) bad = w.badEmail;
        else if (v && f.id === "phone" && !phone(v)) bad = w.badPhone;
        input.setAttribute("aria-invalid", String(!!bad));
        if (bad) {
          input.focus();
          return `${w[f.id]}: ${bad}`;
        }
      }
      return undefined;
    },
  };
}

// phone is the server's rule: 5 to 20 digits, with spaces, dots, dashes, brackets and a leading +.
function phone(v: string): boolean {
  const digits = v.replace(/\D/g, "").length;
  return /^\+?[\d .()-]+$/.test(v) && digits >= 5 && digits <= 20;
}
