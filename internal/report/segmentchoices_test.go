package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
)

// PagePath is the path of the metadata's url, its query and fragment left out.
func TestPagePath(t *testing.T) {
	for raw, want := range map[string]string{
		"https://app.example/pricing?plan=pro#top": "/pricing",
		"https://app.example":                      "/",
		"/docs/api?x=1":                            "/docs/api",
		"https://app.example/a%20b":                "/a b",
		"?only=query":                              "",
		"mailto:someone@example.com":               "",
		"%zz":                                      "",
		"":                                         "",
	} {
		if got := PagePath(map[string]string{"url": raw}); got != want {
			t.Errorf("PagePath(%q) = %q, want %q", raw, got, want)
		}
	}
	if got := PagePath(nil); got != "" {
		t.Errorf("no metadata: %q", got)
	}
}

// The tally keeps its bounds: a value too long to offer, and values past the distinct ones
// counted, are left to the text box (More), never kept.
func TestSegmentTallyBounds(t *testing.T) {
	tally := &segmentTally{counts: map[string]map[string]int{}, holders: map[string]int{}, more: map[string]bool{}}
	add := func(meta string, language string) {
		responseSegments(store.Response{Metadata: []byte(meta), Language: language}, tally)
	}
	for range 3 {
		add(`{"plan":"pro","url":"https://app.example/pricing"}`, "de")
	}
	add(`{"plan":"free"}`, "")
	add(fmt.Sprintf(`{"plan":%q}`, strings.Repeat("x", maxSegmentValueChars+1)), "")
	for i := range maxSegmentDistinct {
		add(fmt.Sprintf(`{"visitor":"v%d"}`, i), "")
	}
	add(`{"late":"after the bound"}`, "fr")
	got := tally.choices(SegmentChoices{Read: 3})
	want := []SegmentChoice{
		{Param: "metadata.late", Kind: SegmentMetadata, Key: "late", More: true},
		{Param: "metadata.plan", Kind: SegmentMetadata, Key: "plan", Values: []ValueCount{{"pro", 3}, {"free", 1}}, More: true},
		{Param: "metadata.url", Kind: SegmentMetadata, Key: "url", Values: []ValueCount{{"https://app.example/pricing", 3}}},
		{Param: "language", Kind: SegmentLanguage, Values: []ValueCount{{"de", 3}}, More: true},
		{Param: "page", Kind: SegmentPage, Values: []ValueCount{{"/pricing", 3}}},
	}
	visitors := got.Segments[3]
	got.Segments = append(got.Segments[:3], got.Segments[4:]...)
	if diff := cmp.Diff(want, got.Segments); diff != "" {
		t.Errorf("segments (-want +got):\n%s", diff)
	}
	if visitors.Key != "visitor" || len(visitors.Values) != maxSegmentValues || !visitors.More {
		t.Errorf("visitors: %d values, more %v", len(visitors.Values), visitors.More)
	}
	if tally.distinct != maxSegmentDistinct {
		t.Errorf("%d distinct values counted, want at most %d", tally.distinct, maxSegmentDistinct)
	}
}
