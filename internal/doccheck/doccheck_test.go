package doccheck

import (
	"bytes"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, two folders up from this package's.
const root = "../.."

// skipDirs are the folders whose files are not the repository's own: Git's, npm's, and what the
// widget's tests build and leave behind (all ignored by Git).
var skipDirs = []string{".git", "node_modules", "widget/test/.build", "widget/test/results"}

// skipSuffixes are the files Git ignores that programs and tests leave in the tree (databases,
// test binaries, exports), and maxSize the size past which a file is not read.
var skipSuffixes = []string{".db", ".db-wal", ".db-shm", ".db-journal", ".test", ".csv"}

const maxSize = 4 << 20

// outside are names of files that live outside the repository (design notes svc was first
// written against) and phrases that point into them. A reader of the repository cannot open
// them, so nothing may name them: docs and comments say what they mean in their own words, or
// link to a page of docs/. The names are put together here so that this file does not hold them.
var outside = []string{
	"extensions" + ".md",
	"interface" + ".md",
	"conventions" + ".md",
	".." + "/shared",
}

// outsideSection is a reference to a numbered section of an outside contract ("contract 4.4",
// "the contract's section 2.1"), which no page of the repository has.
var outsideSection = regexp.MustCompile(`(?i)\bcontract(?:'s)?\s+(?:sections?\s+)?\d`)

// pending lists outside names that a file still holds while someone else rewrites it: the test
// does not fail on them, and says so when the file no longer holds them (the entry can then go).
var pending = map[string]string{}

// TestDocLinks checks every relative link of README.md, CHANGELOG.md and the other Markdown
// files (docs/): its file exists in the repository, and its #anchor, if any, is a heading of
// that file (GitHub's slug of it). Absolute links (a scheme, or //host) are left alone: nothing
// is fetched.
func TestDocLinks(t *testing.T) {
	repo := load(t)
	for _, name := range repo.markdown {
		text := repo.files[name]
		for _, l := range markdownLinks(text) {
			if problem := repo.resolve(name, l.target, false); problem != "" {
				t.Errorf("%s:%d: link %q: %s", name, l.line, l.target, problem)
			}
		}
	}
}

// TestNoOutsideFiles checks that no file of the repository (docs, Go, TypeScript, scripts,
// SQL, JSON...) names a file the repository lacks: none of the outside names, no numbered
// section of an outside contract, and every Markdown file it names (docs/api.md,
// scaling.md#behind-pgbouncer, ../../../README.md) exists, relative to the file, to the root
// or to docs/, with its anchor where one is given.
func TestNoOutsideFiles(t *testing.T) {
	repo := load(t)
	for _, name := range repo.names {
		if name == self {
			continue // its examples are made up
		}
		text := repo.files[name]
		held := map[string]bool{}
		for _, o := range outside {
			for off := 0; ; {
				i := strings.Index(text[off:], o)
				if i < 0 {
					break
				}
				off += i + len(o)
				if pending[name] == o {
					held[o] = true
					continue
				}
				t.Errorf("%s:%d: names %q, which is not in the repository: say what it means, or link to a page of docs/", name, lineOf(text, off-len(o)), o)
			}
		}
		if o, ok := pending[name]; ok && !held[o] {
			t.Logf("%s no longer names %q: its entry in pending can go", name, o)
		}
		for _, m := range outsideSection.FindAllStringIndex(text, -1) {
			t.Errorf("%s:%d: %q points into a contract outside the repository: say what it means, or link to a page of docs/", name, lineOf(text, m[0]), text[m[0]:m[1]])
		}
		for _, m := range mdName.FindAllStringIndex(text, -1) {
			ref := text[m[0]:m[1]]
			if strings.HasPrefix(ref, "//") || m[0] > 0 && text[m[0]-1] == ':' {
				continue // part of an absolute URL
			}
			if slices.ContainsFunc(outside, func(o string) bool { return strings.Contains(ref, o) }) {
				continue // reported above (or pending)
			}
			if problem := repo.resolve(name, ref, true); problem != "" {
				t.Errorf("%s:%d: names %q: %s", name, lineOf(text, m[0]), ref, problem)
			}
		}
	}
}

// self is this file, whose tests name made-up files on purpose.
const self = "internal/doccheck/doccheck_test.go"

// mdName is a Markdown file named in text, with its anchor if it has one.
var mdName = regexp.MustCompile(`[\w./-]*[\w-]\.md\b(?:#[\w-]+)?`)

type repository struct {
	root     string            // absolute
	names    []string          // every text file, relative to root, with slashes
	markdown []string          // the .md files among them
	files    map[string]string // name -> text
	slugs    map[string]map[string]bool
}

func load(t *testing.T) *repository {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
		t.Fatalf("%s is not the repository's root: %v", abs, err)
	}
	r := &repository{root: abs, files: map[string]string{}, slugs: map[string]map[string]bool{}}
	err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed meanwhile (a test's database, say)
		}
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, abs+string(filepath.Separator)))
		if d.IsDir() {
			if slices.Contains(skipDirs, d.Name()) || slices.Contains(skipDirs, rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || slices.ContainsFunc(skipSuffixes, func(s string) bool { return strings.HasSuffix(rel, s) }) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() > maxSize {
			return nil // no file of the repository's own text is near this size
		}
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return nil // binary: an image, a database, a built program
		}
		r.names = append(r.names, rel)
		r.files[rel] = string(b)
		if strings.HasSuffix(rel, ".md") {
			r.markdown = append(r.markdown, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"README.md", "CHANGELOG.md", "docs/api.md"} {
		if !slices.Contains(r.markdown, want) {
			t.Fatalf("%s not found under %s", want, abs)
		}
	}
	return r
}

// resolve reports what is wrong with a reference to target (a path, optionally with an
// #anchor) made from file from, or "" when nothing is. A link in Markdown is relative to its
// file's folder; a name in other text (loose) may also be relative to the root or to docs/.
func (r *repository) resolve(from, target string, loose bool) string {
	if isAbsolute(target) {
		return ""
	}
	path, anchor, _ := strings.Cut(target, "#")
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	var file string
	if path == "" {
		file = from // #anchor: this file
	} else {
		var bases []string
		switch {
		case strings.HasPrefix(path, "/"):
			bases = []string{""}
		case loose:
			bases = []string{filepath.ToSlash(filepath.Dir(from)), "", "docs"}
		default:
			bases = []string{filepath.ToSlash(filepath.Dir(from))}
		}
		for _, base := range bases {
			rel := filepath.ToSlash(filepath.Clean(filepath.Join(base, path)))
			if rel == ".." || strings.HasPrefix(rel, "../") {
				continue // outside the repository
			}
			if _, err := os.Stat(filepath.Join(r.root, filepath.FromSlash(rel))); err == nil {
				file = rel
				break
			}
		}
		if file == "" {
			return "no such file in the repository"
		}
	}
	if anchor == "" {
		return ""
	}
	if !strings.HasSuffix(file, ".md") {
		return ""
	}
	if !r.headings(file)[strings.ToLower(anchor)] {
		return "no heading of " + file + " has the anchor #" + anchor
	}
	return ""
}

// isAbsolute reports whether a link target has a scheme (https:, mailto:) or is //host/...
func isAbsolute(target string) bool {
	return strings.HasPrefix(target, "//") || scheme.MatchString(target)
}

var scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// headings returns the anchors of a Markdown file: GitHub's slug of each ATX heading (the only
// kind these docs use), numbered -1, -2 when repeated, and the id or name of each <a> in it.
func (r *repository) headings(file string) map[string]bool {
	if s, ok := r.slugs[file]; ok {
		return s
	}
	s := map[string]bool{}
	r.slugs[file] = s
	text, ok := r.files[file]
	if !ok {
		return s
	}
	seen := map[string]int{}
	for _, l := range lines(text) {
		if l.fenced {
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(l.text, -1) {
			s[strings.ToLower(m[1])] = true
		}
		m := atxHeading.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		slug := slugify(m[1])
		if n := seen[slug]; n > 0 {
			seen[slug]++
			slug += "-" + strconv.Itoa(n)
		} else {
			seen[slug] = 1
		}
		s[slug] = true
	}
	return s
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// slugify is GitHub's anchor for a heading: its text as shown (links by their text, no
// markup), in lower case, with letters, digits, '-' and '_' kept, spaces made '-', and all
// else dropped.
func slugify(heading string) string {
	heading = inlineLink.ReplaceAllString(heading, "$1")
	heading = htmlTag.ReplaceAllString(heading, "")
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(c), unicode.IsDigit(c), c == '-', c == '_':
			b.WriteRune(c)
		case c == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

type link struct {
	line   int
	target string
}

var (
	linkTarget = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	refDef     = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
)

// markdownLinks returns the targets of the inline links, images and link definitions of a
// Markdown text, outside fenced code blocks and code spans.
func markdownLinks(text string) []link {
	var links []link
	for _, l := range lines(text) {
		if l.fenced {
			continue
		}
		plain := blankCodeSpans(l.text)
		for _, m := range linkTarget.FindAllStringSubmatch(plain, -1) {
			links = append(links, link{l.number, m[1]})
		}
		if m := refDef.FindStringSubmatch(plain); m != nil {
			links = append(links, link{l.number, m[1]})
		}
	}
	return links
}

type line struct {
	number int
	text   string
	fenced bool // inside a fenced code block, or one of its fences
}

// lines splits a Markdown text into lines, marking those of fenced code blocks.
func lines(text string) []line {
	var out []line
	fence := ""
	for i, s := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(s, " ")
		inFence := fence != ""
		switch {
		case fence == "" && len(s)-len(trimmed) <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
			inFence = true
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
		}
		out = append(out, line{i + 1, s, inFence})
	}
	return out
}

// blankCodeSpans replaces each code span of a line (`...`, “...“) with spaces, so that a
// link written as code is not taken for one.
func blankCodeSpans(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		tick := strings.Repeat("`", n)
		end := -1
		for j := i + n; j < len(b); {
			k := strings.Index(string(b[j:]), tick)
			if k < 0 {
				break
			}
			k += j
			if (k+n == len(b) || b[k+n] != '`') && (k == 0 || b[k-1] != '`') {
				end = k
				break
			}
			j = k + n
			for j < len(b) && b[j] == '`' {
				j++
			}
		}
		if end < 0 {
			i += n
			continue
		}
		for j := i; j < end+n; j++ {
			b[j] = ' '
		}
		i = end + n
	}
	return string(b)
}

// lineOf is the line number of byte offset off of text.
func lineOf(text string, off int) int {
	return strings.Count(text[:off], "\n") + 1
}

// TestSlugify holds the slugs to GitHub's for the kinds of heading the docs have.
func TestSlugify(t *testing.T) {
	for heading, want := range map[string]string{
		"Behind PgBouncer":                                           "behind-pgbouncer",
		"Letting svc pick the survey: Svc.init":                      "letting-svc-pick-the-survey-svcinit",
		"1. Mount the handler in your app (`examples/embed`)":        "1-mount-the-handler-in-your-app-examplesembed",
		"The summary and the results pages (issue 25)":               "the-summary-and-the-results-pages-issue-25",
		"Saying \"sent\" only when it is":                            "saying-sent-only-when-it-is",
		"Figures of 2026-11-26, late evening: PostgreSQL":            "figures-of-2026-11-26-late-evening-postgresql",
		"The widget: what a person, a screen reader and a test find": "the-widget-what-a-person-a-screen-reader-and-a-test-find",
		"See [the API](api.md) and _more_":                           "see-the-api-and-_more_",
	} {
		if got := slugify(heading); got != want {
			t.Errorf("slugify(%q) = %q, want %q", heading, got, want)
		}
	}
}

// TestChecks holds the checks themselves to what they must find, on texts made up here.
func TestChecks(t *testing.T) {
	text := "# Title\n\nSee [a](api.md#filters), [b](#title), ![c](x.png \"t\"), [d](https://example.com/y.md).\n" +
		"```\n[not a link](nowhere.md)\n```\n`[code](nowhere.md)` and\n[ref]: ../LICENSE\n"
	var got []string
	for _, l := range markdownLinks(text) {
		got = append(got, l.target)
	}
	want := []string{"api.md#filters", "#title", "x.png", "https://example.com/y.md", "../LICENSE"}
	if !slices.Equal(got, want) {
		t.Errorf("markdownLinks = %q, want %q", got, want)
	}
	r := load(t)
	for _, c := range []struct{ from, target, problem string }{
		{"docs/operating.md", "scaling.md#behind-pgbouncer", ""},
		{"docs/operating.md", "scaling.md#in-front-of-pgbouncer", "no heading of docs/scaling.md has the anchor #in-front-of-pgbouncer"},
		{"docs/operating.md", "nowhere.md", "no such file in the repository"},
		{"README.md", "docs/console.png", ""},
		{"README.md", "../outside.md", "no such file in the repository"},
		{"README.md", "https://example.com/nowhere.md", ""},
		{"README.md", "#set-up", ""},
	} {
		if got := r.resolve(c.from, c.target, false); got != c.problem {
			t.Errorf("resolve(%s, %s) = %q, want %q", c.from, c.target, got, c.problem)
		}
	}
	if got := r.resolve("internal/api/openapi.go", "docs/decisions.md", true); got != "" {
		t.Errorf("a root-relative name in a comment: %q", got)
	}
	if !outsideSection.MatchString("the contract's section\n2.1") || !outsideSection.MatchString("(contract 4.4)") ||
		outsideSection.MatchString("the Store contract, its sentinels") {
		t.Error("outsideSection finds the wrong things")
	}
}
