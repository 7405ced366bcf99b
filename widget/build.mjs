// Builds the widget into dist/ (committed, embedded into the Go module by widget.go):
//   dist/widget.js      the widget, a classic script defining window.Svc
//   dist/screenshot.js  bug-report screenshots, an ES module loaded only when asked for
//   dist/recording.js   bug-report recordings, likewise
//   dist/questions.js   the question types few surveys have (matrix, ranking, …), likewise
//   dist/editor.js      the console's survey editor, a classic script (not served to apps' pages)
// With --tests it also bundles the modules the unit tests import into test/.build/; with
// --tests-only it bundles only those.
import * as esbuild from "esbuild";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";

const common = { bundle: true, minify: true, target: "es2020", legalComments: "eof", logLevel: "warning" };
const testsOnly = process.argv.includes("--tests-only");

if (!testsOnly) await build();
if (testsOnly || process.argv.includes("--tests")) {
  await esbuild.build({
    bundle: true,
    format: "esm",
    platform: "neutral",
    entryPoints: { routing: "src/routing.ts", api: "src/api.ts", labels: "src/labels.ts", words: "src/lazy/words.ts" },
    outdir: "test/.build",
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
  });
}

async function build() {
  await esbuild.build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/widget.js", format: "iife" });
  await esbuild.build({
    ...common,
    entryPoints: { screenshot: "src/lazy/screenshot.ts", recording: "src/lazy/recording.ts", questions: "src/lazy/questions.ts" },
    outdir: "dist",
    format: "esm",
  });
  await esbuild.build({ ...common, entryPoints: ["src/editor/editor.ts"], outfile: "dist/editor.js", format: "iife" });
  for (const f of ["widget.js", "screenshot.js", "recording.js", "questions.js", "editor.js"]) {
    const b = readFileSync(`dist/${f}`);
    console.log(`dist/${f}: ${b.length} bytes, ${gzipSync(b, { level: 9 }).length} gzipped`);
  }
}
