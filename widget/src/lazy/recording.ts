// widget/recording.js: an rrweb recording of the page for a bug report, the text and inputs of
// the redact classes masked.
import { record } from "@rrweb/record";

const maxEvents = 5000;

export function start(redact: string[]): { stop(): unknown[] } {
  const events: unknown[] = [];
  const pattern = redact.length ? new RegExp(`^(${redact.map(escape).join("|")})$`) : /$^/;
  const stopRecording = record({
    emit(event) {
      events.push(event);
      if (events.length > maxEvents) events.splice(2, 1); // keep the first two: the page's meta and snapshot
    },
    maskTextClass: pattern,
    blockClass: pattern,
    maskAllInputs: false,
    inlineStylesheet: false,
  });
  return {
    stop() {
      stopRecording?.();
      return events;
    },
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
