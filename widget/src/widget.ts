// One survey on screen: its element, its questions in turn, what it saves and how it ends.
import { Api, ApiError, Outbox, enc, type Delivery } from "./api";
import { Capture } from "./capture";
import { focusables, h, uid } from "./dom";
import { rightToLeft, type Labels } from "./labels";
import { next, ordered } from "./routing";
import { newResponseId, saveProgress, type Progress } from "./state";
import { adopt } from "./styles";
import type { Answers, Question, Survey } from "./types";
import { controls, titleId, type Controls, type More } from "./view";

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
  /**
   * gesture tells that a person's own gesture (a click, a key) showed the survey: only then
   * does it take the keyboard focus, and, as a dialog, keep it. A survey that appears by
   * itself takes no keystroke: it is announced politely and reached with Tab or the pointer.
   */
  gesture: boolean;
  /** colorScheme is "light", "dark" or "auto" (the system's). */
  colorScheme: string;
  /** words are the labels option, the language and labelsFor, for widget/questions.js's words. */
  words: unknown[];
  done(r: Result): void;
}

// moreTypes are the question types widget/questions.js renders, loaded only by surveys with one
// (or with a thumbs rating).
const moreTypes = ["matrix", "ranking", "date", "consent", "cta", "contact"];

// answerable are the question types that take an answer; the rest (a statement, a type of a
// newer server) are passed.
const answerable = ["rating", "single-select", "multi-select", "open-ended", "bug-report", ...moreTypes];

export class Widget {
  private readonly host = document.createElement("svc-survey");
  private readonly root: ShadowRoot;
  private readonly box: HTMLElement;
  private readonly content: HTMLElement;
  private readonly closeButton: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly questions: Question[];
  private readonly progress: Progress;
  private readonly capture: Capture;
  private message: HTMLElement | null = null;
  private controls: Controls | null = null;
  private more: More | null = null;
  private saved = false;
  private finished = false;
  private busy = false;
  private ended = false;
  /** stopped is set when the survey was closed on the server meanwhile: nothing more is sent. */
  private stopped = false;
  /** confirming is set while the last answers are on their way, before the confirmation. */
  private confirming = false;
  private returnFocus: Element | null = null;

  constructor(private readonly s: Setup) {
    this.questions = ordered(s.survey.questions);
    this.progress = s.progress ?? { responseId: newResponseId(), path: [], answers: {} };
    this.saved = s.progress !== null;
    this.progress.path = this.progress.path.filter((id) => this.questions.some((q) => q.id === id));
    if (this.progress.path.length === 0 && this.questions.length > 0) this.progress.path = [this.questions[0].id];

    const dialog = s.target === null;
    this.host.dataset.mode = dialog ? "dialog" : "inline";
    this.host.dataset.scheme = s.colorScheme;
    this.root = this.host.attachShadow({ mode: "open" });
    adopt(this.root);
    const titleEl = h("p", { id: uid("title"), class: "survey-title", part: "title" }, s.survey.title);
    const lang = s.survey.language;
    this.box = h("div", {
      class: "box",
      part: "dialog",
      lang: lang ?? null,
      dir: lang && rightToLeft(lang) ? "rtl" : null,
      role: dialog ? "dialog" : "region",
      // Modal only when a person opened it: one that appears by itself leaves the page usable.
      "aria-modal": dialog && s.gesture ? "true" : null,
      "aria-labelledby": titleEl.id,
      tabindex: "-1",
    });
    this.closeButton = h("button", { type: "button", class: "close", part: "close", "aria-label": s.labels.close }, "×");
    this.closeButton.addEventListener("click", () => this.close());
    this.content = h("div", { part: "content" });
    // A polite live region: it says a survey appeared by itself, and how saving goes.
    this.status = h("p", { class: "visually-hidden", role: "status" });
    this.box.append(titleEl, this.closeButton, this.content, this.status);
    this.root.append(this.box);
    this.box.addEventListener("keydown", (e) => this.onKey(e, dialog && s.gesture));
    this.capture = new Capture(s.api.base, this.host);
  }

  /** url is where this response's PUTs go, which the outbox reports on. */
  get url(): string {
    return this.s.api.url(`/v1/svc/${enc(this.s.surveyId)}/response/${enc(this.progress.responseId)}`);
  }

  open(): void {
    this.returnFocus = document.activeElement;
    (this.s.target ?? document.body).append(this.host);
    this.s.api.event(this.s.surveyId, this.s.respondent, "view").catch(() => {});
    if (this.questions.length === 0) return this.confirm();
    if (this.questions.some((q) => moreTypes.includes(q.properties.type) || (q.properties as { display?: string }).display === "thumbs")) {
      this.capture
        .more(this.root, this.s.words)
        .then((m) => (this.more = m))
        .finally(() => this.render());
    } else {
      this.render();
    }
    if (!this.s.gesture) {
      // Set after the region is in the page, so that screen readers announce the change.
      setTimeout(() => (this.status.textContent = `${this.s.labels.appeared} ${this.s.survey.title}`), 50);
    }
  }

  /** close ends the survey: a dismissal before the end, a completion after it. */
  close(): void {
    if (this.ended) return;
    if (!this.finished && !this.stopped) {
      this.s.api.event(this.s.surveyId, this.s.respondent, "dismiss").catch(() => {});
    }
    this.end(this.finished ? "completed" : "dismissed");
  }

  /** withdraw takes the survey off the page without recording a dismissal (Svc.reset). */
  withdraw(): void {
    this.stopped = true;
    this.close();
  }

  /** delivered is told what became of this response's latest PUT. */
  delivered(d: Delivery): void {
    if (this.ended) return;
    if (d.state === "sent") {
      if (this.confirming) this.confirm();
      return;
    }
    if (d.state === "waiting") {
      if (this.confirming) this.problem(this.s.labels.notSent, true);
      return;
    }
    this.refused(d.error);
  }

  // refused says in the person's words why the server refused their answers, keeping them (in
  // the progress this browser holds) for a retry where one can help.
  private refused(err: ApiError): void {
    const l = this.s.labels;
    switch (err.status) {
      case 401:
      case 403:
      case 404:
        // The survey was closed (or its key revoked) meanwhile: say so once, and stop asking.
        this.stopped = true;
        this.confirming = false;
        saveProgress(this.s.surveyId, this.s.respondent, null);
        this.closeButton.hidden = true;
        const inside = document.activeElement === this.host;
        this.content.replaceChildren(this.closing(l.surveyClosed));
        this.focusInside(this.content.querySelector("button"), inside);
        return;
      case 413:
        // Sending it again would fail again: the person may go back and leave out the large
        // part (a screenshot), then send again.
        this.unconfirm();
        return this.problem(l.tooLarge, false);
      case 409:
        // The id is another respondent's: a new one for these answers mends it.
        this.progress.responseId = newResponseId();
        saveProgress(this.s.surveyId, this.s.respondent, this.progress);
        return this.problem(l.refused, true);
      default:
        return this.problem(l.refused, true);
    }
  }

  // unconfirm gives the last question back to the person, after its answers were refused.
  private unconfirm(): void {
    if (!this.confirming) return;
    this.confirming = false;
    this.finished = false;
    this.status.textContent = "";
    for (const b of Array.from(this.content.querySelectorAll("button"))) b.disabled = false;
  }

  // problem shows text where the person is, with a button that sends the answers again when
  // that can help.
  private problem(text: string, retry: boolean): void {
    if (!this.message) return;
    this.message.replaceChildren(text);
    if (retry) {
      const b = h("button", { type: "button", class: "button secondary retry", part: "button retry" }, this.s.labels.retry);
      b.addEventListener("click", () => {
        this.message?.replaceChildren(this.confirming ? this.s.labels.sending : "");
        this.put();
      });
      this.message.append(" ", b);
    }
  }

  private end(outcome: "completed" | "dismissed"): void {
    this.ended = true;
    const hadFocus = document.activeElement === this.host;
    this.host.remove();
    // Focus goes back where it was only when it was in the survey: one that appeared by itself
    // and closed (on its own timer, say) while the person typed elsewhere must not move it.
    if (hadFocus && this.returnFocus instanceof HTMLElement && this.returnFocus.isConnected) this.returnFocus.focus();
    this.s.done(this.saved ? { outcome, responseId: this.progress.responseId } : { outcome });
  }

  private onKey(e: KeyboardEvent, modal: boolean): void {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      this.close();
      return;
    }
    if (e.key !== "Tab" || !modal) return;
    // Focus stays in a dialog a person opened: Tab from its last control goes to its first.
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

  // focusInside moves the focus to el (or the box), only when a person's gesture opened the
  // survey or the focus was in it (inside, read before its content was replaced): never from
  // the page into a survey that appeared by itself.
  private focusInside(el: HTMLElement | null | undefined, inside: boolean): void {
    if (!inside && !(this.s.gesture && !this.touched)) return;
    this.touched = true;
    (el ?? this.box).focus();
  }

  /** touched tells that the survey took the focus once; from then on only from inside. */
  private touched = false;

  private render(): void {
    const q = this.question();
    const back = this.s.survey.isBackNavigationAllowed && this.progress.path.length > 1;
    const form = h("form", { part: "question", novalidate: true });
    if (this.progress.path.length === 1 && this.s.survey.description) {
      form.append(h("p", { class: "description survey-description" }, this.s.survey.description));
    }
    const title = h("h2", { id: titleId(q), tabindex: "-1" }, q.title);
    form.append(title);
    const describedBy: string[] = [];
    if (q.description) {
      const d = h("p", { class: "description", id: uid("d") }, q.description);
      describedBy.push(d.id);
      form.append(d);
    }
    const required = q.required && answerable.includes(q.properties.type);
    if (required) {
      const mark = h("p", { class: "required", id: uid("m"), part: "required" }, this.s.labels.requiredMark);
      describedBy.push(mark.id);
      form.append(mark);
    }
    const cx = { describedBy, required };
    this.controls = controls(q, this.progress.answers[q.id], this.s.labels, { autoProgress: () => this.advance() }, this.capture, cx, this.more);
    form.append(...this.controls.nodes);
    this.message = h("p", { class: "message", role: "alert", part: "message" });
    form.append(this.message);
    const actions = h("div", { class: "actions" });
    if (back) {
      const b = h("button", { type: "button", class: "button secondary", part: "button back" }, this.s.survey.backButtonLabel);
      b.addEventListener("click", () => this.back());
      actions.append(b);
    }
    actions.append(...(this.controls.actions ?? [this.primary(q)]));
    form.append(actions);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.advance();
    });
    const inside = document.activeElement === this.host;
    this.content.replaceChildren(form);
    const p = q.properties;
    if (p.type === "bug-report" && p.enableRecording) this.capture.startRecording(p.redactClasses ?? []);
    this.focusInside(focusables(form)[0] ?? title, inside);
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
    if (this.busy || this.ended || this.stopped || this.confirming || !this.controls) return;
    this.busy = true;
    try {
      const q = this.question();
      const a = await this.controls.answer();
      const bad = this.controls.problem?.();
      if (bad) return this.say(bad);
      if (a === undefined && q.required && answerable.includes(q.properties.type)) {
        this.say(this.s.labels.required);
        return;
      }
      if (a === undefined) delete this.progress.answers[q.id];
      else this.progress.answers[q.id] = a;
      const following = next(this.questions, q.id, this.progress.answers);
      this.finished = following === null;
      if (following === null) {
        // The confirmation waits until the server has the answers: it must not say they were
        // sent before they are. Until then the person sees that they are on their way.
        this.confirming = true;
        saveProgress(this.s.surveyId, this.s.respondent, this.progress);
        // A disabled button loses the focus to the page: keep it in the survey meanwhile.
        if (document.activeElement === this.host) this.box.focus();
        for (const b of Array.from(this.content.querySelectorAll("button"))) b.disabled = true;
        this.say("");
        this.status.textContent = this.s.labels.sending;
        this.put();
        return;
      }
      this.put();
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
    const body: { respondent: string; data: Answers; metadata: Record<string, string>; language?: string; finished?: boolean } = {
      respondent: this.s.respondent,
      data,
      metadata,
      language: this.s.survey.language,
    };
    if (this.finished) body.finished = true;
    this.saved = true;
    this.s.outbox.put({ url: this.url, key: this.s.api.key, body });
  }

  // closing is a screen with text and a button that closes the survey.
  private closing(text: string): HTMLElement {
    const button = h("button", { type: "button", class: "button", part: "button primary" }, this.s.labels.close);
    button.addEventListener("click", () => this.close());
    return h("div", { part: "confirmation" }, h("p", { class: "description" }, text), h("div", { class: "actions" }, button));
  }

  private confirm(): void {
    const c = this.s.survey.confirmation;
    this.confirming = false;
    this.finished = true;
    saveProgress(this.s.surveyId, this.s.respondent, null);
    this.status.textContent = "";
    this.closeButton.hidden = true;
    const title = h("h2", { tabindex: "-1" }, c.title);
    const button = h("button", { type: "button", class: "button", part: "button primary" }, c.buttonText || this.s.labels.close);
    button.addEventListener("click", () => this.close());
    this.message = h("p", { class: "message", role: "alert", part: "message" });
    const inside = document.activeElement === this.host;
    this.content.replaceChildren(
      h("div", { part: "confirmation" }, title, c.description ? h("p", { class: "description" }, c.description) : null, this.message, h("div", { class: "actions" }, button)),
    );
    this.focusInside(button, inside);
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
