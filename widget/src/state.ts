// What a browser remembers of a response in progress: its id, the questions passed and the
// answers given, per survey and respondent in sessionStorage, so a reload continues it.
import type { Answers } from "./types";

export interface Progress {
  responseId: string;
  /** path lists the questions shown, in order; the last one is the current question. */
  path: string[];
  answers: Answers;
}

export function storage(kind: "sessionStorage" | "localStorage"): Storage | null {
  try {
    const s = window[kind];
    s.getItem("svc:probe");
    return s;
  } catch {
    return null; // blocked, as in some sandboxed frames
  }
}

function key(surveyId: string, respondent: string): string {
  return `svc:progress:${surveyId}:${respondent}`;
}

export function loadProgress(surveyId: string, respondent: string): Progress | null {
  try {
    const v = JSON.parse(storage("sessionStorage")?.getItem(key(surveyId, respondent)) ?? "null");
    if (v && typeof v.responseId === "string" && Array.isArray(v.path) && v.answers && typeof v.answers === "object") return v;
  } catch {
    // unreadable: start afresh
  }
  return null;
}

export function saveProgress(surveyId: string, respondent: string, p: Progress | null): void {
  const s = storage("sessionStorage");
  try {
    if (p) s?.setItem(key(surveyId, respondent), JSON.stringify(p));
    else s?.removeItem(key(surveyId, respondent));
  } catch {
    // full: the response goes on, only a reload would start it again
  }
}

/** newResponseId is a lowercase UUID, as the server keeps them. */
export function newResponseId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // randomUUID needs a secure context; a plain-http page still gets a version 4 UUID.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
