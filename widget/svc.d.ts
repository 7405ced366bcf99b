// TypeScript declarations of svc's browser widget, the global Svc that widget.js defines, for
// pages written in TypeScript: copy this file into your project (or reference it where the svc
// module is), and Svc.show is typed. The contract is docs/widget.md; the widget's source takes
// its options, result and labels from here, so the two cannot drift.

declare namespace Svc {
  /** The widget's own words, each replaceable. */
  interface Labels {
    close: string;
    bugTitle: string;
    screenshot: string;
    recording: string;
    /** The message of a required question left empty. */
    required: string;
    /** The start of the message shown when the server refuses an answer. */
    refused: string;
  }

  /** The options of Svc.show. */
  interface ShowOptions {
    /** The survey to show. */
    surveyId: string;
    /** A publishable key (svc_pk_…) of the survey's team. */
    publishableKey: string;
    /** Your id for the person answering. */
    respondent: string;
    /** Sent with every answer, beside the page's url, user agent and language. */
    metadata?: Record<string, unknown>;
    /** Where svc's API is served; by default, where widget.js came from. */
    apiBase?: string;
    /** Render inline in this element, rather than as a dialog. */
    target?: Element | null;
    /** Do not show the survey to someone who responded to it (default true). */
    skipIfResponded?: boolean;
    /** Do not show it within this many days of a view or dismissal (default 0). */
    cooldownDays?: number;
    /** Close the confirmation by itself after this many seconds, 0 to 86400 (default 0: never). */
    autoCloseSeconds?: number;
    labels?: Partial<Labels>;
  }

  /** What Svc.show resolves with. */
  interface Result {
    outcome: "completed" | "dismissed" | "skipped";
    /** The response's id, when the person answered. */
    responseId?: string;
  }

  /** Shows a survey, saving each answer as the person moves on, and resolves when it closes. */
  function show(options: ShowOptions): Promise<Result>;
  /** Closes the survey on screen, if any: a dismissal before its end. */
  function close(): void;
}

interface Window {
  readonly Svc: typeof Svc;
}
