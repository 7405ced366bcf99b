// Screenshots and recordings for bug reports. Their libraries are large, so they are separate
// files (widget/screenshot.js, widget/recording.js) loaded only when a bug-report question asks
// for them; and the renderer of the question types few surveys have (widget/questions.js),
// loaded only by a survey that has one.
import type { BugExtras, More } from "./view";

interface ScreenshotModule {
  capture(skip: Element, redact: string[]): Promise<string>;
}
interface RecordingModule {
  start(redact: string[]): { stop(): unknown[] };
}

// Recordings past this size are left out: with the screenshot they must fit the PUT's 10 MiB.
const maxRecordingChars = 4 << 20;

export class Capture implements BugExtras {
  private recorder: Promise<{ stop(): unknown[] } | null> | null = null;

  constructor(
    private readonly base: string,
    private readonly host: Element,
  ) {}

  private load<T>(file: string): Promise<T> {
    // A computed specifier, so the bundler leaves the import to the browser.
    const url = `${this.base}/v1/svc/widget/${file}`;
    return import(/* @vite-ignore */ url) as Promise<T>;
  }

  /** startRecording begins recording the page, for a bug-report question that may attach it. */
  startRecording(redact: string[]): void {
    if (this.recorder) return;
    this.recorder = this.load<RecordingModule>("recording.js")
      .then((m) => m.start(redact))
      .catch(() => null);
  }

  async recording(): Promise<string | undefined> {
    const r = await this.recorder;
    this.recorder = null;
    if (!r) return undefined;
    const json = JSON.stringify(r.stop());
    return json.length <= maxRecordingChars ? json : undefined;
  }

  /** more loads widget/questions.js, the renderer of the question types a survey rarely has. */
  async more(root: ShadowRoot, words: unknown[]): Promise<More> {
    return (await this.load<{ more(root: ShadowRoot, words: unknown[]): More }>("questions.js")).more(root, words);
  }

  async screenshot(redact: string[]): Promise<string | undefined> {
    try {
      const m = await this.load<ScreenshotModule>("screenshot.js");
      return await m.capture(this.host, redact);
    } catch {
      return undefined; // a report without its screenshot beats no report
    }
  }
}
