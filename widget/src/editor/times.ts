// The editor's times: each date and time field shows its time in the browser's time zone, names
// that zone beside it, and tells the server the zone's offset at that time in a hidden field, so
// that the time is stored in UTC. Without the script the fields are in UTC, and say so.

const pad = (n: number): string => String(n).padStart(2, "0");

const offsetName = (minutes: number): string =>
  minutes === 0 ? "UTC" : `UTC${minutes < 0 ? "−" : "+"}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

/** zoneTimes puts the date and time fields under root in the browser's zone. */
export function zoneTimes(root: ParentNode): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const input of root.querySelectorAll<HTMLInputElement>("input[type=datetime-local][data-offset][data-zone]")) {
    const offset = document.getElementById(input.dataset.offset ?? "");
    const name = document.getElementById(input.dataset.zone ?? "");
    if (!(offset instanceof HTMLInputElement) || !name) continue;
    // The server wrote the time in the zone of the offset beside it (UTC, unless this script set
    // it before the form was posted): the same moment, in the browser's zone.
    const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)/.exec(input.value);
    if (m) {
      const at = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]) - Number(offset.value || 0) * 60000);
      input.value = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
    }
    const update = (): void => {
      const typed = input.value ? new Date(input.value) : new Date(); // a date and time without a zone is the browser's
      const minutes = -(Number.isNaN(typed.getTime()) ? new Date() : typed).getTimezoneOffset();
      offset.value = String(minutes);
      name.textContent = zone && zone !== "UTC" && zone !== "Etc/UTC" ? `${zone} (${offsetName(minutes)})` : offsetName(minutes);
    };
    update();
    input.addEventListener("input", update);
    input.addEventListener("change", update);
  }
}
