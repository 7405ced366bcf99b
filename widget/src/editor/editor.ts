// The console's survey editor, as an application (built into dist/editor.js, served by the
// console beside its editor): the form's structural buttons (questions, options, routing rules,
// display rules, Preview) and a question's type change the form in place, the focus on or beside
// what changed; the preview follows the form as it is typed; times are in the browser's zone;
// removing or retyping a question that has answers asks first; leaving unsaved changes asks
// first. The editor works without it: every one of those buttons is a submit the server answers
// with the whole page.
import { ask } from "./ask";
import { Preview } from "./preview";
import { post, swap } from "./swap";
import { zoneTimes } from "./times";

/** inPlace are the actions the editor makes in place; Save, Publish, Pause and the rest submit. */
const inPlace = /^(add|remove|up|down|opt-add|opt-remove|opt-up|opt-down|rule|unrule|d-add|d-remove|preview)(:|$)/;

class Editor {
  private busy = false;
  private readonly queue: Array<() => void> = [];
  /** typed are the fields typed into while a change was on its way, by id, kept over its answer. */
  private readonly typed = new Map<string, string>();
  private leaving = false;
  private baseline: string;
  private readonly preview: Preview;

  constructor(private readonly form: HTMLFormElement) {
    zoneTimes(form);
    this.preview = new Preview(form);
    this.preview.load();
    this.baseline = this.serial();
    form.addEventListener("submit", (e) => this.submitted(e));
    form.addEventListener("change", (e) => this.changed(e));
    form.addEventListener("input", (e) => this.input(e));
    window.addEventListener("beforeunload", (e) => this.unload(e));
    window.addEventListener("pageshow", () => (this.leaving = false)); // back from the page a save went to
  }

  private serial(): string {
    const out = new URLSearchParams();
    for (const [k, v] of new FormData(this.form)) if (typeof v === "string") out.append(k, v);
    return out.toString();
  }

  private submitted(e: SubmitEvent): void {
    const b = e.submitter;
    const action = b instanceof HTMLButtonElement && b.name === "action" ? b.value : "";
    if (!inPlace.test(action)) {
      this.leaving = true; // Save and the rest: the browser's own submit, and no question on leaving
      return;
    }
    e.preventDefault();
    void this.press(action, b);
  }

  private async press(action: string, submitter: HTMLElement | null): Promise<void> {
    if (this.busy) {
      // Pressed again before the page changed: the same button of the changed page, if it has one.
      this.queue.push(() => this.button(action)?.click());
      return;
    }
    const [name, arg = ""] = action.split(":");
    if (name === "remove") {
      const i = Number(arg);
      const answers = this.answers(i);
      const title = this.title(i);
      if (answers > 0) {
        if (!(await ask({ heading: `“${title}” has ${answers} ${answers === 1 ? "answer" : "answers"}. Remove it?`,
          text: "Once the survey is saved without it, its answers no longer have their question in the results.", yes: "Remove question", no: "Keep it" }))) return;
        this.asked(i);
      }
    }
    await this.send(action, submitter);
  }

  private changed(e: Event): void {
    const t = e.target;
    if (this.busy && t instanceof HTMLSelectElement && t.id) this.typed.set(t.id, t.value);
    if (!(t instanceof HTMLSelectElement) || !/^q\d+\.type$/.test(t.name) || this.busy) return;
    void this.retype(t, Number(t.name.slice(1, t.name.indexOf("."))));
  }

  /** retype shows question i's fields for the type chosen in select at once, asking first when it has answers. */
  private async retype(select: HTMLSelectElement, i: number): Promise<void> {
    const shown = this.form.elements.namedItem(`q${i}.shown`);
    const was = shown instanceof HTMLInputElement ? shown.value : "";
    if (select.value === was) return;
    const answers = this.answers(i);
    if (answers > 0) {
      const type = select.selectedOptions[0]?.textContent ?? select.value;
      const yes = await ask({ heading: `“${this.title(i)}” has ${answers} ${answers === 1 ? "answer" : "answers"}. Make it ${type.toLowerCase()}?`,
        text: "Once the survey is saved with another type, its answers no longer match its question in the results.", yes: "Change type", no: "Keep it" });
      if (!yes) {
        select.value = was;
        this.preview.typed();
        return;
      }
      this.asked(i);
    }
    await this.send(`type:${i}`, null);
  }

  private input(e: Event): void {
    const t = e.target;
    if (this.busy && (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) && t.id && t.type !== "checkbox") this.typed.set(t.id, t.value);
    this.preview.typed();
  }

  /** send posts the form with action's button (submitter; none for a type change) and swaps in the page answered. */
  private async send(action: string, submitter: HTMLElement | null): Promise<void> {
    this.busy = true;
    this.form.setAttribute("aria-busy", "true");
    const y = window.scrollY;
    const doc = await post(this.form, submitter);
    if (!doc) {
      this.fallback(action);
      return;
    }
    let focus: HTMLElement | null;
    try {
      ({ focus } = swap(this.form, doc));
    } catch {
      this.fallback(action); // a page this script cannot read: the browser's own submit
      return;
    }
    zoneTimes(this.form);
    const retyped = this.keepTyped();
    this.preview.load();
    if (!this.form.hasAttribute("data-unsaved")) this.baseline = this.serial(); // the survey as stored again
    window.scrollTo(window.scrollX, y);
    const el = focus ?? this.focusFor(action);
    if (el) {
      el.focus({ preventScroll: true });
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) el.scrollIntoView({ block: "nearest" });
    }
    this.busy = false;
    this.form.removeAttribute("aria-busy");
    for (const s of retyped) this.queue.push(() => void this.retype(s, Number(s.name.slice(1, s.name.indexOf(".")))));
    this.queue.shift()?.();
  }

  /** keepTyped puts back what was typed while the change was on its way; it returns the type selects changed meanwhile. */
  private keepTyped(): HTMLSelectElement[] {
    const retyped: HTMLSelectElement[] = [];
    for (const [id, value] of this.typed) {
      const el = document.getElementById(id);
      if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) || !this.form.contains(el)) continue;
      el.value = value;
      if (el instanceof HTMLSelectElement && /^q\d+\.type$/.test(el.name)) retyped.push(el);
    }
    this.typed.clear();
    return retyped;
  }

  /** fallback submits the form as the browser does without the script, when the change could not be made in place. */
  private fallback(action: string): void {
    this.leaving = true;
    if (action && !action.startsWith("type:")) {
      this.form.append(Object.assign(document.createElement("input"), { type: "hidden", name: "action", value: action }));
    }
    this.form.submit();
  }

  /** focusFor is where the focus goes after action, when the server marked no field: on or beside what changed. */
  private focusFor(action: string): HTMLElement | null {
    const [name, arg = ""] = action.split(":");
    const i = Number(arg.split(".")[0]);
    const byId = (id: string): HTMLElement | null => document.getElementById(id);
    switch (name) {
      case "add":
        return byId(`q${this.count() - 1}-title`);
      case "remove":
        return byId(`q${i}-title`) ?? byId(`q${i - 1}-title`) ?? this.button("add");
      case "up":
        return this.button(`up:${i - 1}`) ?? this.button(`down:${i - 1}`);
      case "down":
        return this.button(`down:${i + 1}`) ?? this.button(`up:${i + 1}`);
      case "type":
        return byId(`q${i}-type`);
      default:
        return this.button(action);
    }
  }

  private button(action: string): HTMLButtonElement | null {
    return this.form.querySelector<HTMLButtonElement>(`button[name="action"][value="${CSS.escape(action)}"]`);
  }

  private count(): number {
    const n = this.form.elements.namedItem("n");
    return n instanceof HTMLInputElement ? Number(n.value) : 0;
  }

  /** asked tells the server that the person agreed to question i's answers being lost, so that Save does not ask again. */
  private asked(i: number): void {
    const id = this.form.elements.namedItem(`q${i}.id`);
    if (!(id instanceof HTMLInputElement)) return;
    this.form.append(Object.assign(document.createElement("input"), { type: "hidden", name: "asked", value: id.value }));
  }

  /** answers is how many answers question i has stored, as the server wrote it beside the question. */
  private answers(i: number): number {
    return Number(document.getElementById(`q${i}`)?.dataset.answers ?? 0) || 0;
  }

  private title(i: number): string {
    const t = document.getElementById(`q${i}-title`);
    const title = t instanceof HTMLInputElement ? t.value.trim() : "";
    return title.length > 60 ? `${title.slice(0, 57)}…` : title || `Question ${i + 1}`;
  }

  private unload(e: BeforeUnloadEvent): void {
    if (this.leaving || (!this.form.hasAttribute("data-unsaved") && this.serial() === this.baseline)) return;
    e.preventDefault();
    e.returnValue = ""; // the browsers' own words ask whether to leave
  }
}

const form = document.getElementById("editor");
if (form instanceof HTMLFormElement) new Editor(form);
