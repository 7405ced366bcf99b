// Asking first: a modal dialog, named by its heading, that takes the focus, gives it back to
// what opened it when it closes, and is cancelled by Escape or its safe button.

export interface Question {
  /** heading names the dialog, and asks the question. */
  heading: string;
  /** text says what follows from each answer. */
  text: string;
  /** yes and no are the two buttons' names; no is the safe one, focused first. */
  yes: string;
  no: string;
}

let asked = 0;

/** ask shows q in a modal dialog and resolves whether the person chose yes. */
export function ask(q: Question): Promise<boolean> {
  const opener = document.activeElement;
  const id = `editor-dialog-${++asked}`;
  const dialog = document.createElement("dialog");
  dialog.className = "editor-dialog";
  dialog.setAttribute("aria-labelledby", `${id}-heading`);
  dialog.setAttribute("aria-describedby", `${id}-text`);
  const heading = Object.assign(document.createElement("h2"), { id: `${id}-heading`, textContent: q.heading });
  const text = Object.assign(document.createElement("p"), { id: `${id}-text`, textContent: q.text });
  const yes = Object.assign(document.createElement("button"), { type: "button", textContent: q.yes, className: "danger" });
  const no = Object.assign(document.createElement("button"), { type: "button", textContent: q.no });
  const buttons = document.createElement("p");
  buttons.className = "question-actions";
  buttons.append(no, " ", yes);
  dialog.append(heading, text, buttons);
  document.body.append(dialog);
  return new Promise((resolve) => {
    let answer = false;
    yes.addEventListener("click", () => {
      answer = true;
      dialog.close();
    });
    no.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(answer);
    });
    dialog.showModal(); // Escape cancels it, which closes it: answer stays false
    no.focus();
  });
}
