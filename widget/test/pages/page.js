// The test pages' own script: shows the survey the query names and writes the outcome, as a
// user's page would. An external file, so the strict Content-Security-Policy page runs it.
const p = new URLSearchParams(location.search);
const violations = document.querySelector("#violations");
document.addEventListener("securitypolicyviolation", (e) => {
  const li = document.createElement("li");
  li.textContent = `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`;
  violations.append(li);
});
const options = {
  surveyId: p.get("survey"),
  publishableKey: p.get("pk"),
  respondent: p.get("respondent"),
  metadata: { page: "test" },
};
if (p.has("inline")) options.target = document.querySelector("#inline");
if (p.has("skip")) options.skipIfResponded = p.get("skip") === "1";
if (p.has("cooldown")) options.cooldownDays = Number(p.get("cooldown"));
if (p.has("autoclose")) options.autoCloseSeconds = Number(p.get("autoclose"));
const out = document.querySelector("#result");
function show() {
  Svc.show(options).then(
    (r) => (out.textContent = JSON.stringify(r)),
    (e) => (out.textContent = `error: ${e.message}`),
  );
}
if (p.has("api")) {
  // A page on another origin than svc: the widget comes from svc, and so does its API.
  const script = document.createElement("script");
  script.src = `${p.get("api")}/v1/svc/widget.js`;
  script.addEventListener("load", show);
  document.head.append(script);
} else {
  show();
}
