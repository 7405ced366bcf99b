// The console's preview: the survey being edited, shown inline by the real widget (Svc.preview),
// which sends nothing and records nothing.
const target = document.getElementById("preview");
if (target && window.Svc) window.Svc.preview({ survey: JSON.parse(target.dataset.survey), target, colorScheme: "auto" });
