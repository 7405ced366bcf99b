// Checked by `npm run check` (tsc), never run: svc.d.ts says what the source does, and the
// README's example compiles against it.
/// <reference path="../../svc.d.ts" />
import type { Labels } from "../../src/labels";
import type { Result, ShowOptions } from "../../src/widget";

// Equal is true only when A and B are the same type, not merely assignable one way.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const sameOptions: Equal<Svc.ShowOptions, ShowOptions> = true;
export const sameResult: Equal<Svc.Result, Result> = true;
export const sameLabels: Equal<Svc.Labels, Labels> = true;

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
