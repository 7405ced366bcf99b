// Package doccheck holds no code, only the test that keeps svc's documentation standing on its
// own: every relative link of the README, the changelog and docs/ leads to a file of the
// repository (and, with an #anchor, to one of its headings), and no doc, comment or script names
// a Markdown file the repository does not have. It reads files only, never the network; go test
// ./... runs it, and so does scripts/doclinks.
package doccheck
