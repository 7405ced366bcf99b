// One survey on screen: its element, its questions in turn, what it saves and how it ends.
import { Api, ApiError, Outbox, enc } from "./api";
import { Capture } from "./capture";
import { focusables, h, uid } from "./dom";
import type { Labels } from "./labels";
import { next, ordered } from "./routing";
import { newResponseId, saveProgress, type Progress } from "./state";
import { adopt } from "./styles";
import type { Answers, Question, Survey } from "./types";
import { controls, titleId, type Controls } from "./view";

/** ShowOptions are the options of Svc.show, declared for users in svc.d.ts. */
export type ShowOptions = Svc.ShowOptions;

/** Result is what Svc.show resolves with. */
export type Result = Svc.Result;

interface Setup {
  api: Api;
  outbox: Outbox;
  /** surveyId is the id shown; the public survey view does not carry it. */
  surveyId: string;
  survey: Survey;
  respondent: string;
  progress: Progress | null;
  labels: Labels;
  metadata?: Record<string, unknown>;
  target: Element | null;
  /** autoCloseSeconds closes the confirmation by itself after so many seconds; 0 never does. */
  autoCloseSeconds: number;
  done(r: Result): void;
}

export class Widget {
  private readonly host = document.createElement("svc-survey");
  private readonly root: ShadowRoot;
  private readonly box: HTMLElement;
  private readonly content: HTMLElement;
  private readonly closeButton: HTMLButtonElement;
  private readonly questions: Question[];
  private readonly progress: Progress;
  private readonly capture: Capture;
  private message: HTMLElement | null = null;
  private controls: Controls | null = null;
  private saved = false;
  private finished = false;
  private busy = false;
  private ended = false;
  private returnFocus: Element | null = null;

  constructor(private readonly s: Setup) {
    this.questions = ordered(s.survey.questions);
    this.progress = s.progress ?? { responseId: newResponseId(), path: [], answers: {} };
    this.saved = s.progress !== null;
    this.progress.path = this.progress.path.filter((id) => this.questions.some((q) => q.id === id));
    if (this.progress.path.length === 0 && this.questions.length > 0) this.progress.path = [this.questions[0].id];

    const dialog = s.target === null;
    this.host.dataset.mode = dialog ? "dialog" : "inline";
    this.root = this.host.attachShadow({ mode: "open" });
    adopt(this.root);
    const titleEl = h("p", { id: uid("title"), class: "survey-title", part: "title" }, s.survey.title);
    this.box = h("div", {
      class: "box",
      part: "dialog",
      role: dialog ? "dialog" : "region",
      "aria-modal": dialog ? "true" : null,
      "aria-labelledby": titleEl.id,
      tabindex: "-1",
    });
    this.closeButton = h("button", { type: "button", class: "close", part: "close", "aria-label": s.labels.close }, "×");
    this.closeButton.addEventListener("click", () => this.close());
    this.content = h("div", { part: "content" });
    this.box.append(titleEl, this.closeButton, this.content);
    this.root.append(this.box);
    this.box.addEventListener("keydown", (e) => this.onKey(e, dialog));
    this.capture = new Capture(s.api.base, this.host);
  }

  open(): void {
    this.returnFocus = document.activeElement;
    (this.s.target ?? document.body).append(this.host);
    this.s.api.event(this.s.surveyId, this.s.respondent, "view").catch(() => {});
    if (this.questions.length === 0) return this.confirm();
    this.render();
  }

  /** close ends the survey: a dismissal before the end, a completion after it. */
  close(): void {
    if (this.ended) return;
    if (!this.finished) {
      this.s.api.event(this.s.surveyId, this.s.respondent, "dismiss").catch(() => {});
    }
    this.end(this.finished ? "completed" : "dismissed");
  }

  /** refused shows that the server refused an answer, which retrying will not fix. */
  refused(err: ApiError): void {
    this.say(`${this.s.labels.refused}: ${err.message}`);
  }

  private end(outcome: "completed" | "dismissed"): void {
    this.ended = true;
    this.host.remove();
    if (this.returnFocus instanceof HTMLElement && this.returnFocus.isConnected) this.returnFocus.focus();
    this.s.done(this.saved ? { outcome, responseId: this.progress.responseId } : { outcome });
  }

  private onKey(e: KeyboardEvent, dialog: boolean): void {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      this.close();
      return;
    }
    if (e.key !== "Tab" || !dialog) return;
    // Focus stays in the dialog: Tab from its last control goes to its first, and back.
    const list = focusables(this.box);
    if (list.length === 0) return;
    const first = list[0];
    const last = list[list.length - 1];
    const active = this.root.activeElement;
    if (e.shiftKey && (active === first || active === this.box)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  }

  private question(): Question {
    const id = this.progress.path[this.progress.path.length - 1];
    return this.questions.find((q) => q.id === id)!;
  }

  private render(): void {
    const q = this.question();
    const back = this.s.survey.isBackNavigationAllowed && this.progress.path.length > 1;
    const form = h("form", { part: "question", novalidate: true });
    const title = h("h2", { id: titleId(q), tabindex: "-1" }, q.title);
    form.append(title);
    if (q.description) form.append(h("p", { class: "description" }, q.description));
    this.controls = controls(q, this.progress.answers[q.id], this.s.labels, { autoProgress: () => this.advance() }, this.capture);
    form.append(...this.controls.nodes);
    this.message = h("p", { class: "message", role: "alert", part: "message" });
    form.append(this.message);
    const actions = h("div", { class: "actions" });
    if (back) {
      const b = h("button", { type: "button", class: "button secondary", part: "button back" }, this.s.survey.backButtonLabel);
      b.addEventListener("click", () => this.back());
      actions.append(b);
    }
    actions.append(this.primary(q));
    form.append(actions);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.advance();
    });
    this.content.replaceChildren(form);
    const p = q.properties;
    if (p.type === "bug-report" && p.enableRecording) this.capture.startRecording(p.redactClasses ?? []);
    (focusables(form)[0] ?? title).focus();
  }

  private primary(q: Question): HTMLElement {
    const p = q.properties;
    if (p.type === "statement" && p.buttonUrl && /^https?:\/\//i.test(p.buttonUrl)) {
      const a = h("a", { href: p.buttonUrl, target: "_blank", rel: "noopener noreferrer", class: "button", part: "button" }, p.buttonLabel);
      a.addEventListener("click", () => this.advance()); // the link opens its tab, and the survey goes on
      return a;
    }
    return h("button", { type: "submit", class: "button", part: "button primary" }, p.buttonLabel || "Next");
  }

  private say(text: string): void {
    if (this.message) this.message.textContent = text;
  }

  // back keeps what the person gave on this question too, so coming forward again shows it.
  private async back(): Promise<void> {
    if (this.progress.path.length < 2 || this.busy || !this.controls) return;
    const q = this.question();
    const a = await this.controls.answer();
    if (a !== undefined) this.progress.answers[q.id] = a;
    this.progress.path.pop();
    saveProgress(this.s.surveyId, this.s.respondent, this.progress);
    this.render();
  }

  private async advance(): Promise<void> {
    if (this.busy || this.ended || !this.controls) return;
    this.busy = true;
    try {
      const q = this.question();
      const a = await this.controls.answer();
      // A statement, or a type this widget does not know (from a newer server), cannot be
      // answered here: required or not, it is passed.
      const answerable = ["rating", "single-select", "multi-select", "open-ended", "bug-report"].includes(q.properties.type);
      if (a === undefined && q.required && answerable) {
        this.say(this.s.labels.required);
        return;
      }
      if (a === undefined) delete this.progress.answers[q.id];
      else this.progress.answers[q.id] = a;
      const following = next(this.questions, q.id, this.progress.answers);
      this.finished = following === null;
      this.put();
      if (following === null) {
        saveProgress(this.s.surveyId, this.s.respondent, null);
        this.confirm();
        return;
      }
      this.progress.path.push(following.id);
      saveProgress(this.s.surveyId, this.s.respondent, this.progress);
      this.render();
    } finally {
      this.busy = false;
    }
  }

  // put saves every answer on the path so far; answers left on a path the person went back
  // from are not sent.
  private put(): void {
    const data: Answers = {};
    for (const id of this.progress.path) {
      if (id in this.progress.answers) data[id] = this.progress.answers[id];
    }
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.s.metadata ?? {})) {
      if (v !== undefined && v !== null) metadata[k] = typeof v === "string" ? v : JSON.stringify(v);
    }
    Object.assign(metadata, { url: location.href, userAgent: navigator.userAgent, language: navigator.language });
    const body: { respondent: string; data: Answers; metadata: Record<string, string>; finished?: boolean } = {
      respondent: this.s.respondent,
      data,
      metadata,
    };
    if (this.finished) body.finished = true;
    const url = this.s.api.url(`/v1/svc/${enc(this.s.surveyId)}/response/${enc(this.progress.responseId)}`);
    this.saved = true;
    this.s.outbox.put({ url, key: this.s.api.key, body });
  }

  private confirm(): void {
    const c = this.s.survey.confirmation;
    this.finished = true;
    this.closeButton.hidden = true;
    const title = h("h2", { tabindex: "-1" }, c.title);
    const button = h("button", { type: "button", class: "button", part: "button primary" }, c.buttonText || this.s.labels.close);
    button.addEventListener("click", () => this.close());
    this.message = h("p", { class: "message", role: "alert", part: "message" });
    this.content.replaceChildren(
      h("div", { part: "confirmation" }, title, c.description ? h("p", { class: "description" }, c.description) : null, this.message, h("div", { class: "actions" }, button)),
    );
    button.focus();
    if (this.s.autoCloseSeconds > 0) this.autoClose(this.s.autoCloseSeconds * 1000);
  }

  /**
   * autoClose closes the confirmation after ms, but never while the pointer is over it, and
   * counts again from the start when the pointer leaves it or a key is pressed in it: a person
   * still reading keeps it (WCAG 2.2.1).
   */
  private autoClose(ms: number): void {
    let timer = 0;
    let over = this.box.matches(":hover"); // as when Finish was clicked with the mouse
    const restart = () => {
      clearTimeout(timer);
      if (!over) timer = window.setTimeout(() => this.close(), ms);
    };
    this.box.addEventListener("pointerenter", () => {
      over = true;
      clearTimeout(timer);
    });
    this.box.addEventListener("pointerleave", () => {
      over = false;
      restart();
    });
    this.box.addEventListener("keydown", restart);
    restart();
  }
}
