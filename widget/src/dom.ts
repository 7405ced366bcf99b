// A small element builder: the widget sets text with textContent and attributes one by one,
// never markup, so nothing in a survey's text can become HTML.

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

let counter = 0;

/** uid returns an id unique within the page, for aria references inside the shadow root. */
export function uid(prefix: string): string {
  counter += 1;
  return `svc-${prefix}-${counter}`;
}

/** h makes an element with attributes (true for a bare one; false, null and undefined skip it). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    el.setAttribute(name, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

/** focusables lists what Tab can reach inside root, in order. */
export function focusables(root: ParentNode): HTMLElement[] {
  const sel = 'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';
  return Array.from(root.querySelectorAll<HTMLElement>(sel)).filter((el) => {
    if (el instanceof HTMLInputElement && el.type === "radio" && !el.checked) {
      // Tab stops once in a radio group: at the checked radio, or the first when none is.
      const group = Array.from(root.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${el.name}"]`));
      return !group.some((r) => r.checked) && group[0] === el;
    }
    return true;
  });
}
