// A page that lets svc pick the survey (Svc.init), as a single-page app would: it navigates with
// pushState and reports what happens with Svc.track.
const p = new URLSearchParams(location.search);
Svc.init({ publishableKey: p.get("pk"), respondent: p.get("respondent"), metadata: { page: "targeted" }, language: p.get("lang") || undefined });
document.querySelector("#billing").addEventListener("click", () => history.pushState({}, "", `/spa/billing${location.search}`));
document.querySelector("#upgrade").addEventListener("click", () => Svc.track("upgraded"));
