// Checked by `npm run check` (tsc), never run: what svc.d.ts declares beyond the README's snippet
// (which readme.mjs copies into readme.gen.ts, checked too).
/// <reference path="../../svc.d.ts" />

export async function everyOption(): Promise<void> {
  const result = await Svc.show({
    surveyId: "c…",
    publishableKey: "svc_pk_…",
    respondent: "user-42",
    colorScheme: "auto",
    labels: { close: "Schließen", requiredMark: "Pflicht", pickUpTo: "Bis zu {max}" },
  });
  if (result.outcome === "completed") console.log(result.responseId);
  window.Svc.close();
}

export function targeting(): void {
  Svc.init({ publishableKey: "svc_pk_…", respondent: "user-42", attributes: { plan: "pro", seats: 12, beta: true }, colorScheme: "dark" });
  Svc.track("upgraded");
  Svc.setAttributes({ plan: "team" });
  Svc.reset();
}
