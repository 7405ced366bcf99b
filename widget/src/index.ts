// svc's browser widget: window.Svc.show(options) shows a survey, saves each answer as the person
// moves on, and resolves with what happened. See extensions.md section 1 for the contract.
import { Api, Outbox, type Delivery } from "./api";
import { mergeLabels } from "./labels";
import { loadProgress, storage } from "./state";
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

function required(o: Record<string, unknown>, name: string): string {
  const v = o[name];
  if (typeof v !== "string" || v === "") throw new TypeError(`Svc.show: ${name} is required (a non-empty string)`);
  return v;
}

async function show(options: ShowOptions): Promise<Result> {
  if (!options || typeof options !== "object") throw new TypeError("Svc.show: options are required");
  const o = options as unknown as Record<string, unknown>;
  const surveyId = required(o, "surveyId");
  const key = required(o, "publishableKey");
  const respondent = required(o, "respondent");
  const autoCloseSeconds = options.autoCloseSeconds ?? 0;
  if (typeof autoCloseSeconds !== "number" || !(autoCloseSeconds >= 0 && autoCloseSeconds <= 86_400)) {
    throw new TypeError("Svc.show: autoCloseSeconds is a number of seconds from 0 (never) to 86400");
  }
  const colorScheme = options.colorScheme ?? "light";
  if (!schemes.includes(colorScheme)) throw new TypeError('Svc.show: colorScheme is "light", "dark" or "auto"');
  // Read before the first await: the gesture's activation is of this moment.
  const gesture = byGesture();
  const base = (typeof options.apiBase === "string" && options.apiBase ? options.apiBase : scriptBase).replace(/\/+$/, "");
  const api = new Api(base, key);
  const box = theOutbox();
  box.flush();
  current?.close();
  current = null;

  const progress = loadProgress(surveyId, respondent);
  const skipIfResponded = options.skipIfResponded !== false;
  const cooldownDays = Number(options.cooldownDays) || 0;
  if (!progress && (skipIfResponded || cooldownDays > 0)) {
    const hist = await api.history(surveyId, respondent);
    if (skipIfResponded && hist.lastRespondedAt) return { outcome: "skipped" };
    const cutoff = Date.now() - cooldownDays * 86_400_000;
    const recent = [hist.lastViewedAt, hist.lastDismissedAt].some((t) => t && Date.parse(t) > cutoff);
    if (cooldownDays > 0 && recent) return { outcome: "skipped" };
  }
  const survey = await api.survey(surveyId);
  await domReady(); // show may be called from a script in <head>, before <body> exists
  return new Promise<Result>((resolve) => {
    const w = new Widget({
      api,
      outbox: box,
      surveyId,
      survey,
      respondent,
      progress,
      labels: mergeLabels(options.labels),
      metadata: options.metadata,
      target: options.target ?? null,
      autoCloseSeconds,
      // A person who started typing in the page while the survey loaded keeps the focus too.
      gesture: gesture && !typingIn(document.activeElement),
      colorScheme,
      done: (r) => {
        if (current === w) current = null;
        resolve(r);
      },
    });
    current = w;
    w.open();
  });
}

function domReady(): Promise<void> {
  if (document.body) return Promise.resolve();
  return new Promise((resolve) => document.addEventListener("DOMContentLoaded", () => resolve(), { once: true }));
}

function close(): void {
  current?.close();
}

Object.defineProperty(window, "Svc", {
  value: Object.freeze({ show, close }),
  configurable: true,
  enumerable: false,
  writable: false,
});
