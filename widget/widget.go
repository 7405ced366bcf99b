// Package widget holds svc's browser widget, built from the TypeScript in src/ into dist/ and
// embedded, so that programs serving it need no Node.js. The handler serves it at
// GET /v1/svc/widget.js and GET /v1/svc/widget/{file}.
//
// To change the widget: edit src/, run npm run build in this directory, and commit dist/ with
// the source (CI rebuilds it and fails when the two differ).
package widget

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"sync"
)

//go:embed dist/*.js
var dist embed.FS

// Script is the name of the widget's script; the other files are loaded by it when needed.
const Script = "widget.js"

// Editor is the name of the console's editor script (built from src/editor/), which the console
// serves to its survey editor. It is not one of Files: svc's handler does not serve it to the
// app's pages.
const Editor = "editor.js"

// File is one built file of the widget.
type File struct {
	// Name is the file's name, such as "widget.js".
	Name string
	// Content is the file's bytes.
	Content []byte
	// ETag is a strong entity tag of Content, quoted.
	ETag string
	// Gzip is Content compressed with gzip at its best compression, for clients that accept
	// it (about a third of the size), and GzipETag its entity tag.
	Gzip     []byte
	GzipETag string
}

// Files returns every built file of the widget by name, the console's editor left out. They
// are read and compressed once, the first time, and shared: callers must not change them.
func Files() (map[string]File, error) { return public() }

// public are the files the widget is made of: every built file but the console's editor.
var public = sync.OnceValues(func() (map[string]File, error) {
	all, err := files()
	if err != nil {
		return nil, err
	}
	out := maps.Clone(all)
	delete(out, Editor)
	return out, nil
})

// EditorScript returns the console's editor script (Editor): it makes the console's survey
// editor change the form in place, follow it in the preview as it is typed, and ask before
// answers or unsaved changes are lost. It is read once, the first time, and shared: callers must
// not change it.
func EditorScript() (File, error) {
	all, err := files()
	if err != nil {
		return File{}, err
	}
	f, ok := all[Editor]
	if !ok {
		return File{}, fmt.Errorf("widget: %s was not built: %w", Editor, fs.ErrNotExist) // a defect of the build
	}
	return f, nil
}

// files reads every built file, the editor's among them; Files leaves the editor out.
var files = sync.OnceValues(readFiles)

func readFiles() (map[string]File, error) {
	entries, err := fs.ReadDir(dist, "dist")
	if err != nil {
		return nil, err
	}
	files := make(map[string]File, len(entries))
	for _, e := range entries {
		b, err := dist.ReadFile(path.Join("dist", e.Name()))
		if err != nil {
			return nil, err
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // a valid level: no error
		_, _ = zw.Write(b)                                      // writes to a bytes.Buffer do not fail
		_ = zw.Close()
		files[e.Name()] = File{Name: e.Name(), Content: b, ETag: etag(b, ""), Gzip: gz.Bytes(), GzipETag: etag(b, "-gzip")}
	}
	return files, nil
}

// etag is a strong entity tag of content, with suffix for another encoding of it.
func etag(content []byte, suffix string) string {
	sum := sha256.Sum256(content)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + suffix + `"`
}
