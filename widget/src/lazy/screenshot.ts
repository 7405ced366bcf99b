// widget/screenshot.js: a picture of the page for a bug report, without the widget itself, with
// the elements of the redact classes blacked out.
import { domToJpeg } from "modern-screenshot";

export async function capture(skip: Element, redact: string[]): Promise<string> {
  const selector = redact.map((c) => `.${CSS.escape(c)}`).join(",");
  return domToJpeg(document.documentElement, {
    quality: 0.8,
    backgroundColor: pageBackground(),
    scale: Math.min(devicePixelRatio || 1, 2),
    width: document.documentElement.clientWidth,
    height: document.documentElement.clientHeight,
    filter: (node) => node !== skip,
    workerNumber: 0,
    // Embedding web fonts reads the page's stylesheets through a <style> element, which a strict
    // Content-Security-Policy refuses; a bug report reads fine in the browser's own fonts.
    font: false,
    onCloneNode: (clone) => {
      if (!selector || !(clone instanceof Element)) return;
      for (const el of Array.from(clone.querySelectorAll(selector))) mask(el);
    },
  });
}

// mask paints an element and everything in it black, keeping its size: the picture is pixels,
// so black text on black cannot be read back. Through the CSSOM, which a strict
// Content-Security-Policy allows.
function mask(el: Element): void {
  for (const e of [el, ...Array.from(el.querySelectorAll("*"))]) {
    if (!(e instanceof HTMLElement || e instanceof SVGElement)) continue;
    e.style.setProperty("background", "#000", "important");
    e.style.setProperty("color", "#000", "important");
    e.style.setProperty("-webkit-text-fill-color", "#000", "important");
    if (e instanceof HTMLImageElement || e instanceof HTMLVideoElement || e instanceof HTMLCanvasElement || e instanceof SVGElement) {
      e.style.setProperty("visibility", "hidden", "important");
    }
    if (e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement) e.value = "";
  }
}

// pageBackground is what the page is painted on: a JPEG has no transparency, and a page that
// sets no background would otherwise come out black.
function pageBackground(): string {
  for (const el of [document.body, document.documentElement]) {
    const c = el ? getComputedStyle(el).backgroundColor : "";
    if (c && c !== "transparent" && !/^rgba\(.*,\s*0\)$/.test(c)) return c;
  }
  return "#ffffff";
}
