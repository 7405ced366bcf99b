// The public API as the widget calls it, and the outbox that keeps a response's latest PUT until
// the server has it: across network failures, going offline and reloads.
import type { Answers, Survey } from "./types";

export interface History {
  lastRespondedAt: string | null;
  lastViewedAt: string | null;
  lastDismissedAt: string | null;
}

/** ApiError is a reply the server refused, with its status and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Ask is what the page asks svc's targeting with. */
export interface Ask {
  respondent: string;
  url: string;
  event?: string;
  attributes?: Record<string, unknown>;
}

/** Next is svc's answer: the survey to show (its public view with its id), or null. */
export interface Next {
  survey: (Survey & { id: string }) | null;
  delaySeconds: number;
  reason: string | null;
}

export class Api {
  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  url(path: string): string {
    return this.base + path;
  }

  async get<T>(path: string): Promise<T> {
    const res = await fetch(this.url(path), { headers: { "x-svc-pk": this.key }, credentials: "omit" });
    return (await reply(res)) as T;
  }

  /** survey reads a survey's public view: in lang when given, else in the browser's language. */
  survey(id: string, lang?: string): Promise<Survey> {
    return this.get<Survey>(`/v1/svc/${enc(id)}` + (lang ? `?lang=${enc(lang)}` : ""));
  }

  history(id: string, respondent: string): Promise<History> {
    return this.get<History>(`/v1/svc/${enc(id)}/respondent/${enc(respondent)}`);
  }

  /** next asks which survey to show now (POST /v1/svc/next-survey). */
  async next(ask: Ask, lang?: string): Promise<Next> {
    const res = await fetch(this.url("/v1/svc/next-survey" + (lang ? `?lang=${enc(lang)}` : "")), {
      method: "POST",
      headers: { "x-svc-pk": this.key, "content-type": "application/json" },
      body: JSON.stringify(ask),
      credentials: "omit",
    });
    return (await reply(res)) as Next;
  }

  /** event records a view or a dismissal; it is not kept for later, as a lost view is no loss. */
  async event(id: string, respondent: string, type: "view" | "dismiss"): Promise<void> {
    const res = await fetch(this.url(`/v1/svc/${enc(id)}/respondent/${enc(respondent)}/event`), {
      method: "POST",
      headers: { "x-svc-pk": this.key, "content-type": "application/json" },
      body: JSON.stringify({ type }),
      credentials: "omit",
      keepalive: true,
    });
    await reply(res);
  }
}

export function enc(s: string): string {
  return encodeURIComponent(s);
}

async function reply(res: Response): Promise<unknown> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // a proxy's HTML error page, say
  }
  if (!res.ok) {
    const msg = body && typeof body === "object" && "error" in body ? String((body as { error: unknown }).error) : res.statusText;
    throw new ApiError(res.status, msg || `HTTP ${res.status}`);
  }
  return body;
}

/** A PUT waiting to reach the server. */
export interface Pending {
  url: string;
  key: string;
  body: { respondent: string; data: Answers; metadata: Record<string, string>; finished?: boolean };
}

const outboxKey = "svc:outbox";

/** retryable tells the failures worth trying again: the network, 408, 429 and 5xx. */
export function retryable(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/**
 * backoff is the wait before retry number attempt (from 1): doubling from 1 s up to 30 s, with
 * jitter, or what Retry-After asked for when it said.
 */
export function backoff(attempt: number, retryAfter: string | null, random = Math.random): number {
  const secs = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(secs) && secs >= 0) return Math.min(secs, 300) * 1000;
  if (retryAfter) {
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.min(Math.max(at - Date.now(), 0), 300_000);
  }
  const base = Math.min(1000 * 2 ** (attempt - 1), 30_000);
  return base / 2 + random() * (base / 2);
}

/**
 * Delivery is what became of a response's latest PUT: the server acknowledged it, refused it
 * (retrying would not help: it is dropped), or it waits to be sent again after a failure that
 * retrying may mend (the network, 408, 429, 5xx), with the status of that failure (0 for the
 * network).
 */
export type Delivery = { state: "sent" } | { state: "refused"; error: ApiError } | { state: "waiting"; status: number };

/**
 * Outbox sends each response's latest PUT, one at a time per response. It keeps unsent ones in
 * localStorage, so they survive a reload or the browser going offline, and retries them with
 * backoff; it tells notify what became of each (a refusal that retrying cannot fix is dropped).
 */
export class Outbox {
  private sending = new Set<string>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private attempts = new Map<string, number>();

  constructor(
    private readonly storage: Storage | null,
    private readonly notify: (url: string, d: Delivery) => void,
  ) {
    addEventListener("online", () => this.flush());
  }

  /** put queues p, replacing an older unsent PUT of the same response, and sends it. */
  put(p: Pending): void {
    const all = this.load();
    all[p.url] = p;
    this.save(all);
    this.attempts.delete(p.url);
    this.send(p.url, true); // now, not at the end of a backoff an earlier failure started
  }

  /** flush sends every PUT left from earlier, in this page or before a reload, at once. */
  flush(): void {
    for (const url of Object.keys(this.load())) this.send(url, true);
  }

  /** pending reports whether a PUT of the response at url is still unsent. */
  pending(url: string): boolean {
    return url in this.load();
  }

  private async send(url: string, now = false): Promise<void> {
    if (this.sending.has(url)) return; // the send in flight picks up the newer body after it
    const timer = this.timers.get(url);
    if (timer !== undefined) {
      if (!now) return;
      clearTimeout(timer);
      this.timers.delete(url);
    }
    const p = this.load()[url];
    if (!p) return;
    this.sending.add(url);
    const sent = JSON.stringify(p.body);
    let status = 0;
    let retryAfter: string | null = null;
    let refused: ApiError | null = null;
    let answered = false;
    try {
      const res = await fetch(url, {
        method: "PUT",
        headers: { "x-svc-pk": p.key, "content-type": "application/json" },
        body: sent,
        credentials: "omit",
      });
      status = res.status;
      retryAfter = res.headers.get("retry-after");
      answered = true;
      try {
        await reply(res);
      } catch (err) {
        refused = err as ApiError;
      }
    } catch {
      status = 0; // the network failed
    } finally {
      this.sending.delete(url);
    }
    if (answered && (refused === null || !retryable(status))) {
      this.remove(url, sent);
      if (this.load()[url]) return this.send(url); // a newer body came while this one was sent
      this.attempts.delete(url);
      this.notify(url, refused === null ? { state: "sent" } : { state: "refused", error: refused });
      return;
    }
    const attempt = (this.attempts.get(url) ?? 0) + 1;
    this.attempts.set(url, attempt);
    this.timers.set(
      url,
      setTimeout(() => {
        this.timers.delete(url);
        this.send(url);
      }, backoff(attempt, retryAfter)),
    );
    this.notify(url, { state: "waiting", status });
  }

  // remove drops the PUT of url if its body is still the one sent.
  private remove(url: string, sent: string): void {
    const all = this.load();
    if (all[url] && JSON.stringify(all[url].body) === sent) {
      delete all[url];
      this.save(all);
    }
  }

  private memory: Record<string, Pending> = {};

  private load(): Record<string, Pending> {
    if (!this.storage) return this.memory;
    try {
      const v = JSON.parse(this.storage.getItem(outboxKey) ?? "{}");
      return v && typeof v === "object" ? v : {};
    } catch {
      return {};
    }
  }

  private save(all: Record<string, Pending>): void {
    if (!this.storage) {
      this.memory = all;
      return;
    }
    try {
      if (Object.keys(all).length === 0) this.storage.removeItem(outboxKey);
      else this.storage.setItem(outboxKey, JSON.stringify(all));
    } catch {
      this.memory = all; // storage full or refused: keep it for this page at least
    }
  }
}
