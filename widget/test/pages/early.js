// Calls Svc.show at once, from a script in <head>: before <body> exists.
const p = new URLSearchParams(location.search);
Svc.show({ surveyId: p.get("survey"), publishableKey: p.get("pk"), respondent: p.get("respondent") }).then(
  (r) => (document.querySelector("#result").textContent = JSON.stringify(r)),
  (e) => (document.querySelector("#result").textContent = `error: ${e.message}`),
);
