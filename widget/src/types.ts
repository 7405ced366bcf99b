// The survey as GET /v1/svc/{surveyId} gives it (its public view, docs/api.md), and the answers the
// widget sends.

export interface Survey {
  title: string;
  description?: string | null;
  questions: Question[];
  confirmation: { title: string; description: string; buttonText: string };
  isBackNavigationAllowed: boolean;
  backButtonLabel: string;
  /** language names the texts' language, for a survey with translations. */
  language?: string;
}

export interface Question {
  id: string;
  title: string;
  description?: string | null;
  position: number;
  required: boolean;
  properties: Properties;
  routingLogic: Routing;
}

export type Properties =
  | RatingProperties
  | SingleSelectProperties
  | MultiSelectProperties
  | OpenEndedProperties
  | StatementProperties
  | BugReportProperties
  | MatrixProperties
  | RankingProperties
  | DateProperties
  | ConsentProperties
  | CTAProperties
  | ContactProperties;

export interface RatingProperties {
  type: "rating";
  buttonLabel: string;
  shouldAutoProgress: boolean;
  scale: number;
  display?: string | null;
  labels?: { lower?: string | null; upper?: string | null } | null;
}

export interface Option {
  value: string;
  /** label is shown for the option when it is not its value (a translation's). */
  label?: string | null;
  description?: string | null;
}

export interface Editable {
  label: string;
  max: number;
  description?: string | null;
}

export interface SingleSelectProperties {
  type: "single-select";
  buttonLabel: string;
  shouldAutoProgress: boolean;
  options: Option[];
  editable?: Editable | null;
}

export interface MultiSelectProperties {
  type: "multi-select";
  buttonLabel: string;
  options: Option[];
  editable?: Editable | null;
  max?: number | null;
}

export interface OpenEndedProperties {
  type: "open-ended";
  buttonLabel: string;
  placeholder?: string | null;
  max: number;
}

export interface StatementProperties {
  type: "statement";
  buttonLabel: string;
  buttonUrl?: string | null;
}

export interface BugReportProperties {
  type: "bug-report";
  buttonLabel: string;
  placeholder?: string | null;
  enableScreenshot: boolean;
  enableRecording: boolean;
  detailsLabel: string;
  detailsPlaceholder?: string | null;
  redactClasses?: string[] | null;
}

/** Choice is a matrix's row or column, or a ranking's option. */
export interface Choice {
  value: string;
  label?: string | null;
}

export interface MatrixProperties {
  type: "matrix";
  buttonLabel: string;
  rows: Choice[];
  columns: Choice[];
}

export interface RankingProperties {
  type: "ranking";
  buttonLabel: string;
  options: Choice[];
  min?: number | null;
}

export interface DateProperties {
  type: "date";
  buttonLabel: string;
  min?: string | null;
  max?: string | null;
}

export interface ConsentProperties {
  type: "consent";
  buttonLabel: string;
  label: string;
}

export interface CTAProperties {
  type: "cta";
  buttonLabel: string;
  url?: string | null;
  dismissLabel?: string | null;
}

export interface ContactProperties {
  type: "contact";
  buttonLabel: string;
  fields: { id: "name" | "email" | "phone" | "company" | "address"; required?: boolean }[];
}

export type Target = { type: "next" } | { type: "end" } | { type: "jump"; target: number };

export interface Case {
  type: "binary-operator";
  operator: string;
  value: { type: "value"; value: string | number };
  target: Target;
}

export type Routing =
  | { type: "always"; target: Target }
  | { type: "switch"; cases: Case[]; default: Target };

export interface BugReportAnswer {
  title: string;
  metadata: string;
  description?: string;
  screenshotDataUrl?: string;
  recordingEventsJson?: string;
}

/**
 * An answer as it is sent: a number, a string, a list of choices, a bug report, true (a
 * consent) or an object of strings (a matrix's columns by row, a contact question's fields).
 */
export type Answer = number | string | string[] | BugReportAnswer | boolean | Record<string, string>;

export type Answers = Record<string, Answer>;
