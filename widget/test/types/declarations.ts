// Checked by `npm run check` (tsc), never run: the README's example compiles against svc.d.ts,
// whose types the widget's source uses as its own.
/// <reference path="../../svc.d.ts" />

export async function readmeExample(): Promise<void> {
  const result = await Svc.show({
    surveyId: "c…",
    publishableKey: "svc_pk_…",
    respondent: "user-42",
    metadata: { page: location.pathname },
    apiBase: "https://app.example.com/feedback",
    target: document.querySelector("#feedback"),
    skipIfResponded: true,
    cooldownDays: 0,
    autoCloseSeconds: 0,
    labels: { close: "Close" },
  });
  if (result.outcome === "completed") console.log(result.responseId);
  window.Svc.close();
}
