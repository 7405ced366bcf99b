// svc's browser widget: window.Svc.show(options) shows a survey, saves each answer as the person
// moves on, and resolves with what happened. docs/widget.md says what a person, a screen reader
// and a test find in it; widget/svc.d.ts types its options.
import { Api, Outbox, type Delivery } from "./api";
import { mergeLabels } from "./labels";
import { ordered, resumeAt } from "./routing";
import { loadProgress, newResponseId, storage, type Progress } from "./state";
import type { Answers, Survey } from "./types";
import { Widget, type Result, type ShowOptions } from "./widget";

// Where this script came from, read while it runs (currentScript is null afterwards): the API
// is served beside it unless apiBase says otherwise.
const script = document.currentScript as HTMLScriptElement | null;
const scriptBase = script?.src ? new URL(script.src).href.replace(/\/v1\/svc\/widget\.js(?:[?#].*)?$/, "") : location.origin;

let current: Widget | null = null;
let outbox: Outbox | null = null;

function theOutbox(): Outbox {
  if (!outbox) {
    outbox = new Outbox(storage("localStorage"), (url: string, d: Delivery) => {
      if (current && current.url === url) current.delivered(d);
    });
  }
  return outbox;
}

// typingIn tells whether el is a field a person types in: a survey must not take the focus
// from it.
function typingIn(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable) return true;
  return el instanceof HTMLInputElement && !["button", "submit", "reset", "checkbox", "radio", "image"].includes(el.type);
}

// byGesture tells whether a person's own gesture is showing the survey now: the page has
// transient activation (a click or a key a moment ago) and the focus is not in a field where
// they are typing. A survey shown on load, on a timer, or from a keystroke of someone writing in
// the page appears without taking the keyboard.
function byGesture(): boolean {
  const activation = (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation;
  return activation?.isActive === true && !typingIn(document.activeElement);
}

const schemes = ["light", "dark", "auto"];

function required(o: Record<string, unknown>, name: string, what: string): string {
  const v = o[name];
  if (typeof v !== "string" || v === "") throw new TypeError(`Svc.${what}: ${name} is required (a non-empty string)`);
  return v;
}

// common checks the options show and init share, and returns what they give.
function common(o: Record<string, unknown>, what: string) {
  const autoCloseSeconds = o.autoCloseSeconds ?? 0;
  if (typeof autoCloseSeconds !== "number" || !(autoCloseSeconds >= 0 && autoCloseSeconds <= 86_400)) {
    throw new TypeError(`Svc.${what}: autoCloseSeconds is a number of seconds from 0 (never) to 86400`);
  }
  const colorScheme = (o.colorScheme ?? "light") as string;
  if (!schemes.includes(colorScheme)) throw new TypeError(`Svc.${what}: colorScheme is "light", "dark" or "auto"`);
  const base = (typeof o.apiBase === "string" && o.apiBase ? o.apiBase : scriptBase).replace(/\/+$/, "");
  return { autoCloseSeconds, colorScheme, api: new Api(base, required(o, "publishableKey", what)) };
}

async function show(options: ShowOptions): Promise<Result> {
  if (!options || typeof options !== "object") throw new TypeError("Svc.show: options are required");
  const o = options as unknown as Record<string, unknown>;
  const surveyId = required(o, "surveyId", "show");
  const respondent = required(o, "respondent", "show");
  const { autoCloseSeconds, colorScheme, api } = common(o, "show");
  // Read before the first await: the gesture's activation is of this moment.
  const gesture = byGesture();
  theOutbox().flush();
  current?.close();
  current = null;

  const progress = given(options, loadProgress(surveyId, respondent));
  const skipIfResponded = options.skipIfResponded !== false;
  const cooldownDays = Number(options.cooldownDays) || 0;
  if (!progress && (skipIfResponded || cooldownDays > 0)) {
    const hist = await api.history(surveyId, respondent);
    if (skipIfResponded && hist.lastRespondedAt) return { outcome: "skipped" };
    const cutoff = Date.now() - cooldownDays * 86_400_000;
    const recent = [hist.lastViewedAt, hist.lastDismissedAt].some((t) => t && Date.parse(t) > cutoff);
    if (cooldownDays > 0 && recent) return { outcome: "skipped" };
  }
  const survey = await api.survey(surveyId, typeof options.language === "string" ? options.language : undefined);
  if (progress && !progress.path.length) progress.path = resumeAt(ordered(survey.questions), progress.answers);
  await domReady(); // show may be called from a script in <head>, before <body> exists
  return present({ api, surveyId, survey, respondent, progress, options, autoCloseSeconds, colorScheme,
    // A person who started typing in the page while the survey loaded keeps the focus too.
    gesture: gesture && !typingIn(document.activeElement) });
}

interface Presentation {
  api: Api;
  surveyId: string;
  survey: Survey;
  respondent: string;
  progress: Progress | null;
  options: { labels?: Partial<Svc.Labels>; labelsFor?: Record<string, Partial<Svc.Labels>>; language?: string; metadata?: Record<string, unknown>; target?: Element | null };
  autoCloseSeconds: number;
  colorScheme: string;
  gesture: boolean;
}

// present puts a survey on screen, and resolves when it closes.
function present(p: Presentation): Promise<Result> {
  return new Promise<Result>((resolve) => {
    const w = new Widget({
      api: p.api,
      outbox: theOutbox(),
      surveyId: p.surveyId,
      survey: p.survey,
      respondent: p.respondent,
      progress: p.progress,
      labels: mergeLabels(p.options.labels, p.survey.language ?? p.options.language, p.options.labelsFor),
      words: [p.options.labels, p.survey.language ?? p.options.language, p.options.labelsFor],
      metadata: p.options.metadata,
      target: p.options.target ?? null,
      autoCloseSeconds: p.autoCloseSeconds,
      gesture: p.gesture,
      colorScheme: p.colorScheme,
      done: (r) => {
        if (current === w) current = null;
        resolve(r);
      },
    });
    current = w;
    w.open();
  });
}

// given is the response the page gives (responseId, answers: a link page's), unless this browser
// holds its own progress in it; an empty path is worked out from the answers once the survey is
// read.
function given(o: ShowOptions, stored: Progress | null): Progress | null {
  const id = typeof o.responseId === "string" && o.responseId ? o.responseId : null;
  const answers = o.answers && typeof o.answers === "object" ? (o.answers as Answers) : null;
  if (!id && !answers) return stored;
  if (stored && (!id || stored.responseId === id)) return stored;
  return { responseId: id ?? newResponseId(), path: [], answers: { ...answers } };
}

function domReady(): Promise<void> {
  if (document.body) return Promise.resolve();
  return new Promise((resolve) => document.addEventListener("DOMContentLoaded", () => resolve(), { once: true }));
}

function close(): void {
  current?.close();
}

// Svc.init: svc picks the survey (docs/widget.md#letting-svc-pick-the-survey-svcinit). The page
// asks on load, on every change of its URL and on track; what svc picks appears by itself,
// after its delay, unless the person left the page meanwhile, one survey at a time.
let auto: { o: Svc.InitOptions; api: Api; autoCloseSeconds: number; colorScheme: string } | null = null;
let attributes: Record<string, unknown> | undefined;
let asks = 0; // the latest ask wins
let delay: ReturnType<typeof setTimeout> | undefined;
let lastURL = "";

function init(options: Svc.InitOptions): void {
  if (!options || typeof options !== "object") throw new TypeError("Svc.init: options are required");
  const o = options as unknown as Record<string, unknown>;
  required(o, "respondent", "init");
  auto = { o: options, ...common(o, "init") };
  attributes = options.attributes;
  watchURL();
  void domReady().then(() => ask());
}

function ask(event?: string): void {
  const a = auto;
  if (!a || current) return;
  const seq = ++asks;
  clearTimeout(delay);
  const at = (lastURL = location.href);
  a.api
    .next({ respondent: a.o.respondent, url: at, event, attributes }, typeof a.o.language === "string" ? a.o.language : undefined)
    .then((d) => {
      if (seq !== asks || !d.survey) return;
      const survey = d.survey;
      delay = setTimeout(() => {
        if (seq !== asks || auto !== a || current || location.href !== at) return;
        void present({ api: a.api, surveyId: survey.id, survey, respondent: a.o.respondent, progress: loadProgress(survey.id, a.o.respondent),
          options: a.o, autoCloseSeconds: a.autoCloseSeconds, colorScheme: a.colorScheme, gesture: false });
      }, d.delaySeconds * 1000);
    })
    .catch(() => {}); // no survey: the page goes on
}

let watching = false;

// watchURL asks again whenever the page's URL changes: a single-page app's navigation, the
// back button, a fragment.
function watchURL(): void {
  if (watching) return;
  watching = true;
  const changed = () => {
    if (location.href !== lastURL) ask();
  };
  for (const name of ["pushState", "replaceState"] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History["pushState"]>) {
      original.apply(this, args);
      changed();
    };
  }
  addEventListener("popstate", changed);
  addEventListener("hashchange", changed);
}

function track(event: string): void {
  if (typeof event !== "string" || event === "") throw new TypeError("Svc.track: the event is a non-empty string");
  ask(event);
}

function setAttributes(a: Record<string, string | number | boolean>): void {
  attributes = a;
}

function reset(): void {
  auto = null;
  asks++;
  clearTimeout(delay);
  current?.withdraw();
}

// Svc.preview: the console's preview of a survey being written (docs/widget.md#preview-svcpreview).
// It sends nothing: the view and dismissal are not recorded, and each save is "sent" at once.
class PreviewApi extends Api {
  override event(): Promise<void> {
    return Promise.resolve();
  }
}

function preview(options: Svc.PreviewOptions): Promise<Result> {
  if (!options || typeof options !== "object") throw new TypeError("Svc.preview: options are required");
  const survey = options.survey as Survey;
  if (!survey || typeof survey !== "object" || !Array.isArray(survey.questions)) throw new TypeError("Svc.preview: survey is a survey's public view");
  if (!(options.target instanceof Element)) throw new TypeError("Svc.preview: target is the element to show the survey in");
  const colorScheme = options.colorScheme ?? "light";
  if (!schemes.includes(colorScheme)) throw new TypeError(`Svc.preview: colorScheme is "light", "dark" or "auto"`);
  current?.close();
  current = null;
  const sent = { put: () => setTimeout(() => current?.delivered({ state: "sent" })), flush: () => {}, pending: () => false } as unknown as Outbox;
  return new Promise<Result>((resolve) => {
    const w = new Widget({ api: new PreviewApi(scriptBase, ""), outbox: sent, surveyId: "preview", survey, respondent: "preview", progress: null,
      labels: mergeLabels(options.labels, survey.language), words: [options.labels, survey.language], target: options.target, autoCloseSeconds: 0, gesture: false, colorScheme,
      done: (r) => {
        if (current === w) current = null;
        resolve(r);
      },
    });
    current = w;
    w.open();
  });
}

Object.defineProperty(window, "Svc", {
  value: Object.freeze({ show, close, init, track, setAttributes, reset, preview }),
  configurable: true,
  enumerable: false,
  writable: false,
});
