// Package widget holds svc's browser widget, built from the TypeScript in src/ into dist/ and
// embedded, so that programs serving it need no Node.js. The handler serves it at
// GET /v1/svc/widget.js and GET /v1/svc/widget/{file}.
//
// To change the widget: edit src/, run npm run build in this directory, and commit dist/ with
// the source (CI rebuilds it and fails when the two differ).
package widget

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"io/fs"
	"path"
)

//go:embed dist/*.js
var dist embed.FS

// Script is the name of the widget's script; the other files are loaded by it when needed.
const Script = "widget.js"

// File is one built file of the widget.
type File struct {
	// Name is the file's name, such as "widget.js".
	Name string
	// Content is the file's bytes.
	Content []byte
	// ETag is a strong entity tag of Content, quoted.
	ETag string
}

// Files returns every built file of the widget by name.
func Files() (map[string]File, error) {
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
		sum := sha256.Sum256(b)
		files[e.Name()] = File{Name: e.Name(), Content: b, ETag: `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`}
	}
	return files, nil
}
