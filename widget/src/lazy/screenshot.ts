// widget/screenshot.js: a picture of the page for a bug report, without the widget itself, with
// the elements of the redact classes blacked out.
import { domToJpeg } from "modern-screenshot";

export async function capture(skip: Element, redact: string[]): Promise<string> {
  const masked = (node: Node) => node instanceof Element && redact.some((c) => node.classList.contains(c));
  return domToJpeg(document.documentElement, {
    quality: 0.8,
    scale: Math.min(devicePixelRatio || 1, 2),
    width: document.documentElement.clientWidth,
    height: document.documentElement.clientHeight,
    filter: (node) => node !== skip,
    workerNumber: 0,
    onCloneEachNode: (cloned) => {
      if (masked(cloned) && cloned instanceof HTMLElement) {
        // Through the CSSOM, which a strict Content-Security-Policy allows.
        cloned.style.setProperty("background", "#000", "important");
        cloned.style.setProperty("color", "#000", "important");
        for (const img of Array.from(cloned.querySelectorAll("img"))) img.removeAttribute("src");
        cloned.textContent = "";
      }
    },
  });
}
