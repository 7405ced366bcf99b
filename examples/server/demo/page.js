// The demo page's script, served as a file so the page runs under a policy that refuses inline
// script. It embeds the widget as an app does: Svc.init for a visitor of its own, so that what
// the console publishes with display rules shows here, and buttons for what rules react to.
"use strict";

(() => {
  const main = document.getElementById("demo");
  const status = document.getElementById("status");
  const controls = document.getElementById("controls");
  if (!main || !status || !controls) return; // the "no such page" page has no widget
  // Said in the page rather than in <noscript>, which a browser that blocks script only for
  // this site does not always show.
  document.getElementById("needs-script").hidden = true;
  const { surveyId, publishableKey } = main.dataset;
  const say = (text) => (status.textContent = text);

  if (!window.Svc) {
    say("The widget did not load (/v1/svc/widget.js), so no survey can show on this page.");
    return;
  }

  // The visitor's id is kept in this browser, as an app keeps its user's, so that svc's rules
  // (shown once, until responded, percentage) hold for the same person across pages and visits.
  const storageKey = "svc-demo-visitor";
  const newVisitor = () =>
    "visitor-" + Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("");
  function remember(id) {
    try {
      localStorage.setItem(storageKey, id);
    } catch {
      // Storage refused (a private window's policy): the id lasts as long as the page.
    }
    document.getElementById("visitor").textContent = id;
    return id;
  }
  function stored() {
    try {
      return localStorage.getItem(storageKey);
    } catch {
      return null;
    }
  }

  let visitor = remember(stored() || newVisitor());
  const start = () => Svc.init({ publishableKey, respondent: visitor, colorScheme: "auto" });
  start();
  controls.hidden = false;

  document.getElementById("show").addEventListener("click", async () => {
    say("");
    try {
      // skipIfResponded false: the button is a person asking to see it, answered or not.
      const result = await Svc.show({ surveyId, publishableKey, respondent: visitor, colorScheme: "auto", skipIfResponded: false });
      say("The demo survey closed: Svc.show resolved with " + JSON.stringify(result) + ".");
    } catch (e) {
      say("The demo survey could not be shown: " + e.message);
    }
  });
  document.getElementById("track").addEventListener("click", () => {
    Svc.track("checkout");
    say("Sent the event checkout: a survey waiting for it shows now, unless one is on screen.");
  });
  document.getElementById("again").addEventListener("click", () => {
    Svc.reset();
    visitor = remember(newVisitor());
    start();
    say("Your visitor id is now " + visitor + ": one svc has never seen.");
  });
})();
