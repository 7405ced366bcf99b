// The widget's styles. They live in the shadow root only, as a constructed stylesheet: nothing
// of them reaches the host page, and a strict Content-Security-Policy (style-src 'self', no
// inline <style>) does not apply to stylesheets made through the CSSOM.

const css = `
:host {
  all: initial !important;
  display: block !important;
  visibility: visible !important;
  opacity: 1 !important;
  --_accent: var(--svc-accent, #2f5bd3);
  --_bg: var(--svc-background, #ffffff);
  --_text: var(--svc-text, #1b1f24);
  --_muted: color-mix(in srgb, var(--_text) 70%, var(--_bg));
  --_line: color-mix(in srgb, var(--_text) 25%, var(--_bg));
  --_radius: var(--svc-radius, 10px);
  --_font: var(--svc-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
}
:host([data-mode="dialog"]) {
  position: fixed !important;
  z-index: 2147483000 !important;
  right: 16px !important;
  bottom: 16px !important;
  left: auto !important;
  top: auto !important;
  width: min(400px, calc(100vw - 32px)) !important;
  max-height: calc(100vh - 32px) !important;
}
:host([data-scheme="dark"]) {
  --_bg: var(--svc-background, #1d2026);
  --_text: var(--svc-text, #eef0f3);
  --_accent: var(--svc-accent, #8fb0ff);
}
@media (prefers-color-scheme: dark) {
  :host([data-scheme="auto"]) {
    --_bg: var(--svc-background, #1d2026);
    --_text: var(--svc-text, #eef0f3);
    --_accent: var(--svc-accent, #8fb0ff);
  }
}
@media (max-width: 420px) {
  :host([data-mode="dialog"]) { right: 8px !important; bottom: 8px !important; width: calc(100vw - 16px) !important; }
}
*, *::before, *::after { box-sizing: border-box; }
.box {
  font: 15px/1.45 var(--_font);
  color: var(--_text);
  background: var(--_bg);
  border: 1px solid var(--_line);
  border-radius: var(--_radius);
  box-shadow: 0 8px 30px rgb(0 0 0 / 0.18);
  padding: 16px 16px 14px;
  max-height: inherit;
  overflow: auto;
  position: relative;
  container: svc / inline-size;
  animation: svc-in 160ms ease-out;
}
@keyframes svc-in { from { opacity: 0; transform: translateY(8px); } to { opacity: 1; transform: none; } }
@media (prefers-reduced-motion: reduce) { .box, .box * { animation: none !important; transition: none !important; } }
.survey-title { margin: 0 0 8px; margin-inline-end: 32px; font-size: 13px; color: var(--_muted); }
h2 { font-size: 17px; line-height: 1.3; margin: 0 0 6px; margin-inline-end: 32px; font-weight: 600; }
.description { margin: 0 0 12px; color: var(--_muted); }
.required, .hint { margin: -2px 0 8px; font-size: 13px; color: var(--_muted); }
.required::before { content: "* " / ""; color: var(--_accent); font-weight: 700; }
.close {
  position: absolute; top: 8px; inset-inline-end: 8px; width: 32px; height: 32px;
  border: 0; border-radius: 50%; background: transparent; color: var(--_muted);
  font: 20px/1 var(--_font); cursor: pointer;
}
.close:hover { background: var(--_line); }
:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
form { margin: 0; }
.scale { display: grid; grid-template-columns: repeat(var(--_n, 5), minmax(0, 1fr)); gap: 4px; margin: 4px 0; }
.scale.wide { gap: 2px; }
/* An eleven-point scale stays on one row down to 264 px: cells touch rather than wrap, each at
   least 24 px wide (WCAG 2.5.8). */
@container svc (max-width: 340px) {
  .scale.wide { gap: 0; }
  .scale.wide .score span { border-radius: 0; font-size: 13px; }
  .scale.wide .score:first-child span { border-radius: calc(var(--_radius) * 0.6) 0 0 calc(var(--_radius) * 0.6); }
  .scale.wide .score:last-child span { border-radius: 0 calc(var(--_radius) * 0.6) calc(var(--_radius) * 0.6) 0; }
}
.choice { display: flex; gap: 8px; align-items: flex-start; padding: 8px 10px; margin: 0 0 6px;
  border: 1px solid var(--_line); border-radius: calc(var(--_radius) * 0.6); cursor: pointer; }
.choice:has(input:checked) { border-color: var(--_accent); background: color-mix(in srgb, var(--_accent) 12%, var(--_bg)); }
.choice:has(input:disabled) { opacity: 0.55; cursor: default; }
.choice input { margin: 3px 0 0; accent-color: var(--_accent); }
.choice small { display: block; color: var(--_muted); }
.score { position: relative; min-width: 24px; }
.score input { position: absolute; inset: 0; opacity: 0; margin: 0; cursor: pointer; width: 100%; height: 100%; }
.score span { display: block; text-align: center; padding: 7px 0; border: 1px solid var(--_line);
  border-radius: calc(var(--_radius) * 0.6); }
.score input:checked + span { background: var(--_accent); color: var(--_bg); border-color: var(--_accent); }
.score input:focus-visible + span { outline: 3px solid var(--_accent); outline-offset: 2px; }
.star span { font-size: 24px; line-height: 1; padding: 4px 0; border: 0; color: var(--_muted); }
.star.lit span, .star input:checked + span { color: var(--_accent); background: transparent; }
.ends { display: flex; justify-content: space-between; font-size: 12px; color: var(--_muted); margin: 2px 0 8px; }
label.field { display: block; margin: 10px 0 4px; font-weight: 500; }
input[type="text"], textarea {
  width: 100%; font: inherit; color: var(--_text); background: var(--_bg);
  border: 1px solid var(--_line); border-radius: calc(var(--_radius) * 0.6); padding: 8px 10px;
}
textarea { min-height: 84px; resize: vertical; }
.check { display: flex; gap: 8px; align-items: center; margin: 8px 0 0; }
.actions { display: flex; gap: 8px; justify-content: flex-end; margin-top: 14px; flex-wrap: wrap; }
.button {
  font: 600 14px/1 var(--_font); padding: 10px 16px; border-radius: calc(var(--_radius) * 0.6);
  border: 1px solid var(--_accent); background: var(--_accent); color: var(--_bg); cursor: pointer;
  text-decoration: none; display: inline-block;
}
.button.secondary { background: transparent; color: var(--_accent); }
.message { margin: 10px 0 0; color: #b3261e; font-size: 14px; }
.message:empty { display: none; }
.message .retry { margin-inline-start: 8px; padding: 6px 10px; font-size: 13px; }
:host([data-scheme="dark"]) .message { color: #ffb4ab; }
@media (prefers-color-scheme: dark) { :host([data-scheme="auto"]) .message { color: #ffb4ab; } }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/** adopt gives root the widget's styles. */
export function adopt(root: ShadowRoot): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [sheet];
}
