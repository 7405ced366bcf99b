// The controls of each question type, with the roles and accessible names docs/widget.md lists
// for them, and the answer they hold.
import { h, uid } from "./dom";
import type { Labels } from "./labels";
import type {
  Answer,
  BugReportAnswer,
  BugReportProperties,
  Editable,
  MultiSelectProperties,
  OpenEndedProperties,
  Option,
  Question,
  RatingProperties,
  SingleSelectProperties,
} from "./types";

/** Controls are a question's inputs: where they go, and the answer they hold. */
export interface Controls {
  /** nodes go between the question's description and its buttons. */
  nodes: Node[];
  /** answer is what the person gave, or undefined for nothing. */
  answer(): Promise<Answer | undefined>;
  /** problem says what keeps the answer from being sent (an e-mail address that is not one). */
  problem?(): string | undefined;
  /** actions replace the question's button (a call to action's two). */
  actions?: HTMLElement[];
}

/** More renders the question types of widget/questions.js, loaded by the surveys that use them. */
export interface More {
  /** controls are q's, or null for a question of the types above. */
  controls(q: Question, prior: Answer | undefined, hooks: Hooks, cx: Context): Controls | null;
}

/** Hooks let controls move the survey on by themselves (auto-progress) and report changes. */
export interface Hooks {
  autoProgress(): void;
}

/**
 * Context is what a question's controls announce beside their names: the ids of the texts that
 * describe them (the question's description, "Required"), and whether an answer is required.
 */
export interface Context {
  describedBy: string[];
  required: boolean;
}

export function controls(q: Question, prior: Answer | undefined, labels: Labels, hooks: Hooks, extra: BugExtras, cx: Context, more: More | null): Controls {
  const m = more?.controls(q, prior, hooks, cx);
  if (m) return m;
  const p = q.properties;
  switch (p.type) {
    case "rating":
      return rating(q, p, prior, hooks, cx);
    case "single-select":
      return singleSelect(q, p, prior, hooks, cx);
    case "multi-select":
      return multiSelect(q, p, prior, labels, cx);
    case "open-ended":
      return openEnded(q, p, prior, cx);
    case "bug-report":
      return bugReport(p, prior, labels, extra);
    default:
      return { nodes: [], answer: async () => undefined }; // a statement, or a type this widget does not know
  }
}

// describe gives el the descriptions and the requirement of cx, where its role allows them.
function describe(el: HTMLElement, cx: Context, extra: string[] = [], requirable = true): void {
  const ids = [...cx.describedBy, ...extra];
  if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
  if (cx.required && requirable) el.setAttribute("aria-required", "true");
}

// Arrow keys move the choice within a radio group, and the browser reports that as a change;
// auto-progress must wait for a deliberate choice (a click, Space), or a keyboard user could
// never get past the first value.
function arrowAware(inputs: HTMLInputElement[], onChoose: () => void): void {
  let arrowed = false;
  for (const input of inputs) {
    input.addEventListener("keydown", (e) => {
      arrowed = e.key.startsWith("Arrow");
    });
    input.addEventListener("change", () => {
      const viaArrow = arrowed;
      arrowed = false;
      if (!viaArrow) onChoose();
    });
  }
}

function rating(q: Question, p: RatingProperties, prior: Answer | undefined, hooks: Hooks, cx: Context): Controls {
  const nps = p.display === "nps";
  const star = p.display === "star";
  const name = uid("r");
  const count = p.scale + (nps ? 1 : 0);
  const group = h("div", { role: "radiogroup", "aria-labelledby": titleId(q), class: count > 6 ? "scale wide" : "scale", part: "scale" });
  describe(group, cx);
  group.style.setProperty("--_n", String(count)); // the CSSOM, which a strict CSP allows
  const inputs: HTMLInputElement[] = [];
  const faces: HTMLElement[] = [];
  for (let v = nps ? 0 : 1; v <= p.scale; v++) {
    const input = h("input", { type: "radio", name, value: v, "aria-label": String(v), checked: prior === v });
    inputs.push(input);
    const face = h("span", { "aria-hidden": "true", part: "score" }, star ? "☆" : String(v));
    faces.push(face);
    group.append(h("label", { class: star ? "score star" : "score" }, input, face));
  }
  // Lit stars are filled and unlit ones outlined, so they differ in shape as well as colour
  // (WCAG 1.4.1), in greyscale too.
  const light = () => {
    const chosen = inputs.findIndex((i) => i.checked);
    inputs.forEach((i, n) => {
      const lit = star && chosen >= 0 && n <= chosen;
      i.parentElement!.classList.toggle("lit", lit);
      if (star) faces[n].textContent = lit ? "★" : "☆";
    });
  };
  light();
  arrowAware(inputs, () => p.shouldAutoProgress && hooks.autoProgress());
  for (const input of inputs) input.addEventListener("change", light);
  const nodes: Node[] = [group];
  if (p.labels?.lower || p.labels?.upper) {
    nodes.push(h("div", { class: "ends", part: "scale-labels" }, h("span", {}, p.labels.lower ?? ""), h("span", {}, p.labels.upper ?? "")));
  }
  return {
    nodes,
    answer: async () => {
      const chosen = inputs.find((i) => i.checked);
      return chosen ? Number(chosen.value) : undefined;
    },
  };
}

/** titleId is the id of a question's heading, which names its group of choices. */
export function titleId(q: Question): string {
  return `svc-q-${q.position}`;
}

function singleSelect(q: Question, p: SingleSelectProperties, prior: Answer | undefined, hooks: Hooks, cx: Context): Controls {
  const [group, inputs] = options(q, p.options, "radio", (v) => prior === v);
  describe(group, cx);
  const nodes: Node[] = [group];
  let text: HTMLInputElement | null = null;
  if (p.editable) {
    const isOther = typeof prior === "string" && !p.options.some((o) => o.value === prior);
    text = editableField(p.editable, isOther ? (prior as string) : "", nodes);
    const t = text;
    t.addEventListener("input", () => {
      if (t.value !== "") inputs.forEach((i) => (i.checked = false));
    });
    inputs.forEach((i) => i.addEventListener("change", () => (t.value = "")));
  }
  arrowAware(inputs, () => p.shouldAutoProgress && hooks.autoProgress());
  return {
    nodes,
    answer: async () => {
      const typed = text?.value.trim();
      if (typed) return typed;
      return inputs.find((i) => i.checked)?.value;
    },
  };
}

// options makes a question's choices: a radiogroup of radios or a group of checkboxes, named by
// the question's title, each named by its label, else its value (aria-label, so that an option's description,
// linked by aria-describedby, is not part of its name).
function options(q: Question, list: Option[], type: "radio" | "checkbox", checked: (v: string) => boolean): [HTMLElement, HTMLInputElement[]] {
  const name = uid("s");
  const inputs = list.map((o) => h("input", { type, name, value: o.value, "aria-label": o.label || o.value, checked: checked(o.value) }));
  const group = h("div", { role: type === "radio" ? "radiogroup" : "group", "aria-labelledby": titleId(q), part: "options" });
  list.forEach((o, i) => {
    const desc = o.description ? h("small", { id: uid("d") }, o.description) : null;
    if (desc) inputs[i].setAttribute("aria-describedby", desc.id);
    group.append(h("label", { class: "choice", part: "option" }, inputs[i], h("span", {}, o.label || o.value, desc)));
  });
  return [group, inputs];
}

// editableField is the text a person may type instead of (or beside) the options, with its
// label and, when the question gives one, its description.
function editableField(e: Editable, value: string, nodes: Node[]): HTMLInputElement {
  const id = uid("t");
  const input = h("input", { type: "text", id, maxlength: e.max, part: "textbox" });
  input.value = value;
  nodes.push(h("label", { for: id, class: "field" }, e.label));
  if (e.description) {
    const desc = h("p", { id: uid("d"), class: "hint" }, e.description);
    input.setAttribute("aria-describedby", desc.id);
    nodes.push(desc);
  }
  nodes.push(input);
  return input;
}

function multiSelect(q: Question, p: MultiSelectProperties, prior: Answer | undefined, labels: Labels, cx: Context): Controls {
  const chosen = Array.isArray(prior) ? prior : [];
  const [group, inputs] = options(q, p.options, "checkbox", (v) => chosen.includes(v));
  const nodes: Node[] = [];
  let hint: HTMLElement | null = null;
  if (p.max && p.max < p.options.length + (p.editable ? 1 : 0)) {
    hint = h("p", { id: uid("h"), class: "hint", part: "hint" }, labels.pickUpTo.replace("{max}", String(p.max)));
    nodes.push(hint);
  }
  // A group of checkboxes cannot be marked aria-required; "Required" describes it instead.
  describe(group, cx, hint ? [hint.id] : [], false);
  nodes.push(group);
  let text: HTMLInputElement | null = null;
  if (p.editable) {
    const other = chosen.find((v) => !p.options.some((o) => o.value === v)) ?? "";
    text = editableField(p.editable, other, nodes);
  }
  // At most max choices, the free text counting as one (as the server counts it).
  const limit = () => {
    if (!p.max) return;
    const count = inputs.filter((i) => i.checked).length + (text?.value.trim() ? 1 : 0);
    for (const i of inputs) i.disabled = !i.checked && count >= p.max;
    if (text) text.disabled = !text.value.trim() && count >= p.max;
  };
  inputs.forEach((i) => i.addEventListener("change", limit));
  text?.addEventListener("input", limit);
  limit();
  return {
    nodes,
    answer: async () => {
      const values = inputs.filter((i) => i.checked).map((i) => i.value);
      const typed = text?.value.trim();
      if (typed && !values.includes(typed)) values.push(typed);
      return values.length ? values : undefined;
    },
  };
}

function openEnded(q: Question, p: OpenEndedProperties, prior: Answer | undefined, cx: Context): Controls {
  const area = h("textarea", { "aria-labelledby": titleId(q), placeholder: p.placeholder ?? null, maxlength: p.max, part: "textbox" });
  describe(area, cx);
  area.value = typeof prior === "string" ? prior : "";
  return {
    nodes: [area],
    answer: async () => area.value.trim() || undefined,
  };
}

/** BugExtras captures what a bug report may attach; capture.ts provides it. */
export interface BugExtras {
  screenshot(redact: string[]): Promise<string | undefined>;
  recording(): Promise<string | undefined>;
}

function bugReport(p: BugReportProperties, prior: Answer | undefined, labels: Labels, extra: BugExtras): Controls {
  const before = prior && typeof prior === "object" && !Array.isArray(prior) ? prior : null;
  const titleInput = h("input", { type: "text", id: uid("t"), maxlength: 200, part: "textbox", placeholder: p.placeholder ?? null });
  titleInput.value = before?.title ?? "";
  const details = h("textarea", { id: uid("t"), placeholder: p.detailsPlaceholder ?? null, part: "textbox" });
  details.value = before?.description ?? "";
  const nodes: Node[] = [
    h("label", { for: titleInput.id, class: "field" }, labels.bugTitle),
    titleInput,
    h("label", { for: details.id, class: "field" }, p.detailsLabel),
    details,
  ];
  const check = (label: string) => {
    const box = h("input", { type: "checkbox", id: uid("c") });
    nodes.push(h("div", { class: "check" }, box, h("label", { for: box.id }, label)));
    return box;
  };
  const shot = p.enableScreenshot ? check(labels.screenshot) : null;
  const rec = p.enableRecording ? check(labels.recording) : null;
  return {
    nodes,
    answer: async () => {
      const title = titleInput.value.trim();
      const description = details.value.trim();
      if (!title && !description) return undefined;
      const a: BugReportAnswer = { title: title || description.slice(0, 80), metadata: pageMetadata() };
      if (description) a.description = description;
      if (shot?.checked) {
        const url = await extra.screenshot(p.redactClasses ?? []);
        if (url) a.screenshotDataUrl = url;
      }
      if (rec?.checked) {
        const events = await extra.recording();
        if (events) a.recordingEventsJson = events;
      }
      return a;
    },
  };
}

/** pageMetadata is a bug report's metadata: the page, the browser, the viewport and the time. */
function pageMetadata(): string {
  return JSON.stringify({
    url: location.href,
    userAgent: navigator.userAgent,
    viewport: { width: innerWidth, height: innerHeight },
    time: new Date().toISOString(),
  });
}
