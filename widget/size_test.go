package widget_test

import (
	"testing"

	"github.com/svc-feedback/svc/widget"
)

// maxScriptGzip is widget.js's budget gzipped, 13.5 KiB: the script every page with a survey
// loads. What few surveys need (screenshots, recordings, the rarer question types) is loaded
// apart, only by the surveys that use it.
const maxScriptGzip = 13824

func TestScriptWithinBudget(t *testing.T) {
	files, err := widget.Files()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := files[widget.Script]
	if !ok {
		t.Fatalf("no %s among the widget's files", widget.Script)
	}
	if n := len(f.Gzip); n > maxScriptGzip {
		t.Errorf("%s is %d bytes gzipped, over its budget of %d: load what few surveys need apart, as questions.js is", widget.Script, n, maxScriptGzip)
	}
	if _, ok := files["questions.js"]; !ok {
		t.Error("questions.js, the rarer question types, is not among the widget's files")
	}
}
