// The live preview: the survey as the server last rendered it (the preview's data-survey, fresh
// after every change made in place), with the form's words laid over it as they are typed, shown
// by the real widget (Svc.preview), which records and sends nothing. Nothing is sent to the
// server while typing either.
import type { Option, Question, Survey } from "../types";

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** pause is how long typing stops, in milliseconds, before the preview shows it. */
const pause = 300;

/** Preview shows the form's survey in the preview's element. */
export class Preview {
  private survey: Survey | null = null;
  private target: HTMLElement | null = null;
  private pending = 0;

  constructor(private readonly form: HTMLFormElement) {}

  /** load takes the survey the server rendered into the page (after a load, or a change in place) and shows it. */
  load(): void {
    const target = document.getElementById("preview");
    this.target = target;
    this.survey = null;
    if (!target?.dataset.survey) return;
    try {
      this.survey = JSON.parse(target.dataset.survey) as Survey;
    } catch {
      return; // the server writes JSON: nothing to show otherwise
    }
    this.show();
  }

  /** typed shows the form's words over the survey once the person pauses: the widget says each survey it shows to screen readers, once a pause, not once a key. */
  typed(): void {
    if (!this.survey) return;
    clearTimeout(this.pending);
    this.pending = window.setTimeout(() => this.show(), pause);
  }

  private show(): void {
    const svc = (window as { Svc?: { preview(o: object): Promise<unknown> } }).Svc;
    if (!this.survey || !this.target || !svc) return;
    try {
      void svc.preview({ survey: overlay(this.survey, this.form), target: this.target, colorScheme: "auto" }).catch(() => {});
    } catch {
      // A survey the widget cannot show yet (typed halfway): the preview stays as it was.
    }
  }
}

/** overlay is survey with the form's words as they are typed now. */
function overlay(survey: Survey, form: HTMLFormElement): Survey {
  const s = structuredClone(survey);
  const field = (name: string): string | null => {
    const f = form.elements.namedItem(name);
    return f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement || f instanceof HTMLSelectElement ? (f as Field).value : null;
  };
  const text = (name: string, set: (v: string) => void, fallback?: string): void => {
    const v = field(name);
    if (v !== null) set(v.trim() || fallback || "");
  };
  text("title", (v) => (s.title = v));
  text("description", (v) => (s.description = v || null));
  text("confirmTitle", (v) => (s.confirmation.title = v));
  text("confirmText", (v) => (s.confirmation.description = v));
  text("confirmButton", (v) => (s.confirmation.buttonText = v));
  text("backLabel", (v) => (s.backButtonLabel = v));
  const n = Number(field("n") ?? 0);
  for (let i = 0; i < n; i++) {
    const q = s.questions.find((x) => x.id === field(`q${i}.id`));
    if (q) overlayQuestion(q, `q${i}.`, field, text);
  }
  return s;
}

function overlayQuestion(
  q: Question,
  p: string,
  field: (name: string) => string | null,
  text: (name: string, set: (v: string) => void, fallback?: string) => void,
): void {
  text(`${p}title`, (v) => (q.title = v));
  text(`${p}description`, (v) => (q.description = v || null));
  const props = q.properties as unknown as Record<string, unknown> & { type: string };
  if (field(`${p}type`) !== props.type) return; // another type's fields: the server shows them first
  text(`${p}button`, (v) => (props.buttonLabel = v), "Next");
  text(`${p}placeholder`, (v) => (props.placeholder = v || null));
  text(`${p}detailsLabel`, (v) => v && (props.detailsLabel = v));
  text(`${p}detailsHint`, (v) => (props.detailsPlaceholder = v || null));
  if (props.type === "rating") {
    const labels = { ...((props.labels as object | null) ?? {}) } as { lower?: string | null; upper?: string | null };
    text(`${p}lower`, (v) => (labels.lower = v || null));
    text(`${p}upper`, (v) => (labels.upper = v || null));
    props.labels = labels.lower || labels.upper ? labels : null;
  }
  const editable = props.editable as { label: string } | null | undefined;
  if (editable) text(`${p}ownLabel`, (v) => (editable.label = v), "Other");
  const rows = Number(field(`${p}options`) ?? -1);
  if (rows < 0 || !Array.isArray(props.options)) return;
  const options: Option[] = [];
  for (let j = 0; j < rows; j++) {
    const value = (field(`${p}o${j}.value`) ?? "").trim();
    const description = (field(`${p}o${j}.description`) ?? "").trim();
    if (value) options.push({ value, description: description || null });
  }
  if (options.length > 0) props.options = options; // none: the widget would show an empty question
}
