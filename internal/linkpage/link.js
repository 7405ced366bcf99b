// The link page's script: it shows the page's survey with svc's widget, inline, as the page's
// data attributes say. An anonymous page's browser is one respondent, kept in localStorage.
"use strict";
(function () {
  var el = document.getElementById("svc-link");
  if (!el || !window.Svc) return;
  var d = el.dataset;
  var respondent = d.respondent;
  var responseId = d.response || undefined;
  if (!respondent) {
    var key = "svc:link:" + d.survey;
    try {
      respondent = localStorage.getItem(key) || "";
      if (!respondent) {
        respondent = "anonymous-" + crypto.randomUUID();
        localStorage.setItem(key, respondent);
      }
    } catch (e) {
      respondent = "anonymous-" + crypto.randomUUID(); // storage blocked: this visit only
    }
  }
  var answers;
  try {
    answers = d.answers ? JSON.parse(d.answers) : undefined;
  } catch (e) {
    answers = undefined;
  }
  // The API is served beside the page's folder: /prefix/s/{id} has it at /prefix.
  var base = new URL("..", location.href).href.replace(/\/+$/, "");
  window.Svc.show({
    surveyId: d.survey,
    publishableKey: d.key,
    respondent: respondent,
    responseId: responseId,
    answers: answers,
    language: d.language || undefined,
    apiBase: base,
    target: el,
    skipIfResponded: false,
    metadata: { channel: "link" },
  }).then(function (result) {
    // The page stays a page: it says what became of the survey rather than going blank.
    var p = document.createElement("p");
    p.setAttribute("role", "status");
    p.textContent = result.outcome === "dismissed" ? d.dismissed : d.thanks;
    el.replaceChildren(p);
  });
})();
