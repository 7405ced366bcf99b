// The widget's own words, each replaceable through the labels option.

/** Labels are the widget's words, declared for users in svc.d.ts. */
export type Labels = Svc.Labels;

export const defaultLabels: Labels = {
  close: "Close",
  bugTitle: "Title",
  screenshot: "Include a screenshot",
  recording: "Include a recording of this page",
  required: "Please answer this question to go on.",
  requiredMark: "Required",
  pickUpTo: "Pick up to {max}",
  appeared: "A short survey appeared:",
  sending: "Sending your answers…",
  notSent: "Not sent yet: the server cannot be reached. Your answers are kept on this device and sent as soon as it can be.",
  retry: "Try again",
  refused: "Your answers could not be saved.",
  tooLarge: "Your answer is too large to send. Try again without the screenshot or the recording.",
  surveyClosed: "This survey is no longer open. Thank you for your time.",
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
