// The Share page's Copy buttons: each copies its text (a readonly field's, or every link of the
// table, one a line) to the clipboard and says so in the page's polite live region. Without this
// script the buttons stay hidden, and the text is in readonly fields and the table, to select.
const said = document.getElementById("copy-status");
let clear;
const say = (text) => {
  clearTimeout(clear);
  said.textContent = ""; // the same words again are announced again
  requestAnimationFrame(() => (said.textContent = text));
  clear = setTimeout(() => (said.textContent = ""), 8000);
};

for (const button of document.querySelectorAll("button[data-copy], button[data-copy-links]")) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const field = button.dataset.copy ? document.getElementById(button.dataset.copy) : null;
    const text = field ? field.value : [...document.querySelectorAll(button.dataset.copyLinks)].map((cell) => cell.textContent.trim()).join("\n");
    try {
      await navigator.clipboard.writeText(text);
      say(`Copied ${button.dataset.what}.`);
    } catch {
      if (field) {
        field.focus();
        field.select();
        say(`Not copied: this browser did not allow it. The text is selected: press Ctrl+C, or ⌘C on a Mac, to copy it.`);
      } else {
        say("Not copied: this browser did not allow it. Download the links as CSV instead.");
      }
    }
  });
}
