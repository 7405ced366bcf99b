// Changing the form in place: the form is posted as the browser would post it, its pressed
// button's action included, and the editor's page the server answers replaces the form, its
// notices and its problems, without navigating. Any other answer, or none, falls back to the
// browser's own submit.

/** Swapped is what a swap leaves for the editor to do. */
export interface Swapped {
  /** focus is the element the server marked autofocus, if any. */
  focus: HTMLElement | null;
}

/** post sends the form, with submitter's action (none for a type change), and returns the editor's page the server answered, or null. */
export async function post(form: HTMLFormElement, submitter: HTMLElement | null): Promise<Document | null> {
  const body = new URLSearchParams();
  for (const [k, v] of new FormData(form, submitter)) if (typeof v === "string") body.append(k, v);
  try {
    // Not form.action: the form's buttons named "action" shadow it.
    const to = new URL(form.getAttribute("action") ?? "", location.href);
    const res = await fetch(to, { method: "POST", body, credentials: "same-origin", headers: { Accept: "text/html" } });
    if (res.redirected || (!res.ok && res.status !== 422) || !(res.headers.get("Content-Type") ?? "").startsWith("text/html")) return null;
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    return doc.querySelector("form#editor") ? doc : null;
  } catch {
    return null; // offline, refused, or cut short: the browser's own submit says so
  }
}

/** swap puts the answered page's form, notices, problems and preview into the page. */
export function swap(form: HTMLFormElement, doc: Document): Swapped {
  const fresh = doc.querySelector<HTMLFormElement>("form#editor")!;
  form.replaceChildren(...adopt(fresh.childNodes));
  form.toggleAttribute("data-unsaved", fresh.hasAttribute("data-unsaved"));
  // The problems above the form: the ones answered instead of the ones shown.
  const main = form.closest("main");
  const notices = document.getElementById("notices");
  if (main && notices) {
    for (const old of main.querySelectorAll(":scope > [role=alert]")) old.remove();
    notices.after(...adopt(doc.querySelectorAll("main > [role=alert]")));
  }
  // The notices, into the same live region, which announces them politely.
  const said = doc.getElementById("notices");
  if (notices) notices.replaceChildren(...adopt(said?.childNodes ?? []));
  const preview = document.getElementById("preview-section");
  const shown = doc.getElementById("preview-section");
  if (preview && shown) preview.replaceChildren(...adopt(shown.childNodes));
  return { focus: form.querySelector<HTMLElement>("[autofocus]") };
}

/** adopt takes nodes into this page: a copy of the list first, since adopting a node takes it out of a live one. */
function adopt(nodes: ArrayLike<Node>): Node[] {
  return Array.from(nodes).map((n) => document.adoptNode(n));
}
