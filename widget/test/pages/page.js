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
if (p.has("notes")) {
  // A field of the page's own, where a person types while a survey appears.
  const label = document.createElement("label");
  label.append("Notes ", Object.assign(document.createElement("textarea"), { id: "notes" }));
  document.querySelector("main").append(label);
}
if (p.has("spacer")) document.body.classList.add("spacer"); // the inline target below the fold
if (p.has("skip")) options.skipIfResponded = p.get("skip") === "1";
if (p.has("cooldown")) options.cooldownDays = Number(p.get("cooldown"));
if (p.has("autoclose")) options.autoCloseSeconds = Number(p.get("autoclose"));
if (p.has("scheme")) options.colorScheme = p.get("scheme");
if (p.has("lang")) options.language = p.get("lang");
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
} else if (p.has("later")) {
  // Shown by itself after a while (as a page's timer would), whatever the person is doing.
  setTimeout(show, Number(p.get("later")));
} else if (p.has("gesture")) {
  // Shown by a person's click (or Enter) on the page's button: the survey takes the focus.
  document.querySelector("#show").addEventListener("click", show);
} else {
  show();
}
