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
    /** Beside a required question's title. */
    requiredMark: string;
    /** The hint of a multi-select question with a max; {max} is replaced by it. */
    pickUpTo: string;
    /** Said politely to a screen reader when a survey appears by itself, before its title. */
    appeared: string;
    /** While the last answers are on their way. */
    sending: string;
    /** When the server cannot be reached: the answers wait on the device. */
    notSent: string;
    /** The button that tries a refused or unsent save again. */
    retry: string;
    /** When the server refused the answers. */
    refused: string;
    /** When an answer (a screenshot, a recording) is larger than the server takes. */
    tooLarge: string;
    /** When the survey was closed (made inactive or deleted) while it was answered. */
    surveyClosed: string;
    // The words of the rarer question types, in widget/questions.js (loaded by the surveys
    // that have them), each with its default in the widget's languages.
    /** A thumbs rating's buttons. */
    thumbsUp?: string;
    thumbsDown?: string;
    /** A ranking's hint, its buttons ("Move {item} up", "Move {item} down") and what a move announces ("{item}: position {n} of {total}"). */
    rankHint?: string;
    moveUp?: string;
    moveDown?: string;
    moved?: string;
    /** A call to action's dismiss button when it names none. */
    dismiss?: string;
    /** A required matrix with a row unanswered. */
    everyRow?: string;
    /** A contact question's messages, after the field's word. */
    fieldRequired?: string;
    badEmail?: string;
    badPhone?: string;
    /** A contact question's fields. */
    name?: string;
    email?: string;
    phone?: string;
    company?: string;
    address?: string;
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
    /**
     * The widget's colours: "light" (the default, as most pages are), "dark", or "auto" to
     * follow the person's system setting.
     */
    colorScheme?: "light" | "dark" | "auto";
    /**
     * The language to show the survey in, such as "de" or "pt-BR", for a survey with
     * translations; by default the browser's (its Accept-Language). Its closest translation is
     * shown, else the survey's default language. The widget's own words follow the survey's.
     */
    language?: string;
    /**
     * The widget's own words in languages it does not ship (it ships en, de, fr, es and ar), by
     * language tag: { pt: { close: "Fechar", … } }.
     */
    labelsFor?: Record<string, Partial<Labels>>;
    labels?: Partial<Labels>;
    /** Continue (or start) the response with this id, as a link page does. */
    responseId?: string;
    /** Answers given already (a link's): the survey starts at the first question they leave. */
    answers?: Record<string, number | string | string[]>;
  }

  /** The options of Svc.init: the survey is svc's choice, from the team's display rules. */
  interface InitOptions {
    /** A publishable key (svc_pk_…) of the team. */
    publishableKey: string;
    /** Your id for the person on the page. */
    respondent: string;
    /**
     * What svc's display rules may test of the person: strings, numbers and booleans. Sent with
     * each ask; attributes your backend stored for the person win over these.
     */
    attributes?: Record<string, string | number | boolean>;
    /** Sent with every answer, beside the page's url, user agent and language. */
    metadata?: Record<string, unknown>;
    /** Where svc's API is served; by default, where widget.js came from. */
    apiBase?: string;
    /** Close the confirmation by itself after this many seconds, 0 to 86400 (default 0: never). */
    autoCloseSeconds?: number;
    colorScheme?: "light" | "dark" | "auto";
    /** The language to show surveys in; by default the browser's (see ShowOptions). */
    language?: string;
    /** The widget's own words in languages it does not ship, by language tag (see ShowOptions). */
    labelsFor?: Record<string, Partial<Labels>>;
    labels?: Partial<Labels>;
  }

  /** What Svc.show resolves with. */
  interface Result {
    outcome: "completed" | "dismissed" | "skipped";
    /** The response's id, when the person answered. */
    responseId?: string;
  }

  /**
   * Shows a survey, saving each answer as the person moves on, and resolves when it closes.
   * Called from a person's own gesture (a click), it takes the keyboard focus; called by
   * itself (on load, on a timer) it appears without taking it, so a person typing in the page
   * loses no keystroke to it, and they reach it with Tab or the pointer.
   */
  function show(options: ShowOptions): Promise<Result>;
  /** Closes the survey on screen, if any: a dismissal before its end. */
  function close(): void;
  /**
   * Lets svc pick the survey to show: it asks on load and whenever the page's URL changes
   * (pushState, replaceState, popstate, hashchange), and shows what svc picks, after the
   * survey's delay, one survey at a time. A survey that appears this way never takes the
   * keyboard. Calling init again replaces the options.
   */
  function init(options: InitOptions): void;
  /** Tells svc that something happened (an event name of your own): a survey may wait for it. */
  function track(event: string): void;
  /** Replaces the attributes sent with later asks. */
  function setAttributes(attributes: Record<string, string | number | boolean>): void;
  /** Forgets the person (at logout): closes the survey on screen and asks no more until init. */
  function reset(): void;

  /** Options of Svc.preview. */
  interface PreviewOptions {
    /** A survey's public view, as GET /v1/svc/{surveyId} gives it (the console's, unsaved). */
    survey: unknown;
    /** The element the survey is shown in. */
    target: Element;
    labels?: Partial<Labels>;
    colorScheme?: "light" | "dark" | "auto";
  }
  /**
   * Shows a survey inline as a person would answer it, for its author: it needs no key, sends
   * nothing and records nothing. It resolves when the preview closes.
   */
  function preview(options: PreviewOptions): Promise<Result>;
}

interface Window {
  readonly Svc: typeof Svc;
}
