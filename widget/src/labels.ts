// The widget's own words, each replaceable through the labels option.

/** Labels are the widget's words, declared for users in svc.d.ts. */
export type Labels = Svc.Labels;

export const defaultLabels: Labels = {
  close: "Close",
  bugTitle: "Title",
  screenshot: "Include a screenshot",
  recording: "Include a recording of this page",
  required: "Please answer this question to go on.",
  refused: "Your answer could not be saved",
};

export function mergeLabels(given: unknown): Labels {
  const out: Labels = { ...defaultLabels };
  if (given && typeof given === "object") {
    for (const k of Object.keys(out) as (keyof Labels)[]) {
      const v = (given as Record<string, unknown>)[k];
      if (typeof v === "string" && v) out[k] = v;
    }
  }
  return out;
}
