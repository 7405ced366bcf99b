package jsonmerge_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/jsonmerge"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func encode(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// byValue identifies options by their value, questions by their id, strings by themselves.
func byValue(p jsonmerge.Path, item any) (string, bool) {
	if o, ok := item.(map[string]any); ok {
		if v, ok := o["value"].(string); ok && len(p) > 0 && p[len(p)-1].Key == "options" {
			return v, true
		}
	}
	return jsonmerge.DefaultIdentity(p, item)
}

func TestMerge(t *testing.T) {
	const survey = `{"title":"T","description":null,"questions":[
		{"id":"a","title":"A","properties":{"type":"single-select","options":[{"value":"x"},{"value":"y"}]}},
		{"id":"b","title":"B","properties":{"type":"rating","scale":5}},
		{"id":"c","title":"C","properties":{"type":"open-ended"}}],"tags":["one","two"],"matrix":[[1,2],[3]]}`
	for _, tt := range []struct {
		name, base, theirs, mine, want string
		conflicts                      []string // paths
	}{
		{"nothing changed", survey, survey, survey, survey, nil},
		{"only mine", `{"a":1,"b":2}`, `{"a":1,"b":2}`, `{"a":1,"b":3}`, `{"a":1,"b":3}`, nil},
		{"only theirs", `{"a":1,"b":2}`, `{"a":5,"b":2}`, `{"a":1,"b":2}`, `{"a":5,"b":2}`, nil},
		{"different members", `{"a":1,"b":2}`, `{"a":5,"b":2}`, `{"a":1,"b":3}`, `{"a":5,"b":3}`, nil},
		{"same change on both sides", `{"a":1}`, `{"a":2}`, `{"a":2}`, `{"a":2}`, nil},
		{"same member, different values", `{"a":1,"b":1}`, `{"a":2,"b":1}`, `{"a":3,"b":1}`, `{"a":3,"b":1}`, []string{"a"}},
		{"numbers written differently are equal", `{"a":1}`, `{"a":1.0}`, `{"a":2}`, `{"a":2}`, nil},
		{"member added on each side", `{}`, `{"a":1}`, `{"b":2}`, `{"a":1,"b":2}`, nil},
		{"member added on both sides differently", `{}`, `{"a":1}`, `{"a":2}`, `{"a":2}`, []string{"a"}},
		{"member removed by theirs", `{"a":1,"b":2}`, `{"b":2}`, `{"a":1,"b":3}`, `{"b":3}`, nil},
		{"removed by theirs, changed by mine", `{"a":1}`, `{}`, `{"a":2}`, `{"a":2}`, []string{"a"}},
		{"removed by mine, changed by theirs", `{"a":1}`, `{"a":2}`, `{}`, `{}`, []string{"a"}},
		{"object made on both sides", `{}`, `{"d":{"x":1}}`, `{"d":{"y":2}}`, `{"d":{"x":1,"y":2}}`, nil},
		{"null to object on both sides", `{"d":null}`, `{"d":{"x":1}}`, `{"d":{"x":1,"y":2}}`, `{"d":{"x":1,"y":2}}`, nil},
		{"deep members", `{"d":{"x":{"p":1,"q":1}}}`, `{"d":{"x":{"p":2,"q":1}}}`, `{"d":{"x":{"p":1,"q":2}}}`, `{"d":{"x":{"p":2,"q":2}}}`, nil},
		{"scalar to object and to a number", `{"a":1}`, `{"a":{"b":1}}`, `{"a":3}`, `{"a":3}`, []string{"a"}},
		{
			"questions by id, different questions",
			`{"questions":[{"id":"a","title":"A"},{"id":"b","title":"B"}]}`,
			`{"questions":[{"id":"a","title":"A2"},{"id":"b","title":"B"}]}`,
			`{"questions":[{"id":"a","title":"A"},{"id":"b","title":"B2"}]}`,
			`{"questions":[{"id":"a","title":"A2"},{"id":"b","title":"B2"}]}`, nil,
		},
		{
			"the same question's title",
			`{"questions":[{"id":"a","title":"A"}]}`, `{"questions":[{"id":"a","title":"Theirs"}]}`, `{"questions":[{"id":"a","title":"Mine"}]}`,
			`{"questions":[{"id":"a","title":"Mine"}]}`, []string{"questions[a].title"},
		},
		{
			"moved by theirs, changed by mine: matched by id, not index",
			`{"questions":[{"id":"a","title":"A"},{"id":"b","title":"B"}]}`,
			`{"questions":[{"id":"b","title":"B"},{"id":"a","title":"A"}]}`,
			`{"questions":[{"id":"a","title":"A"},{"id":"b","title":"B2"}]}`,
			`{"questions":[{"id":"b","title":"B2"},{"id":"a","title":"A"}]}`, nil,
		},
		{
			"added on each side, each after the one it follows",
			`{"questions":[{"id":"a"},{"id":"b"}]}`,
			`{"questions":[{"id":"a"},{"id":"t"},{"id":"b"}]}`,
			`{"questions":[{"id":"a"},{"id":"b"},{"id":"m"}]}`,
			`{"questions":[{"id":"a"},{"id":"t"},{"id":"b"},{"id":"m"}]}`, nil,
		},
		{
			"added first by theirs",
			`{"questions":[{"id":"a"}]}`, `{"questions":[{"id":"t"},{"id":"a"}]}`, `{"questions":[{"id":"a","x":1}]}`,
			`{"questions":[{"id":"t"},{"id":"a","x":1}]}`, nil,
		},
		{
			"removed by theirs, another added by mine",
			`{"questions":[{"id":"a"},{"id":"b"}]}`, `{"questions":[{"id":"b"}]}`, `{"questions":[{"id":"a"},{"id":"b"},{"id":"m"}]}`,
			`{"questions":[{"id":"b"},{"id":"m"}]}`, nil,
		},
		{
			"removed by theirs, changed by mine",
			`{"questions":[{"id":"a","title":"A"},{"id":"b"}]}`, `{"questions":[{"id":"b"}]}`, `{"questions":[{"id":"a","title":"A2"},{"id":"b"}]}`,
			`{"questions":[{"id":"a","title":"A2"},{"id":"b"}]}`, []string{"questions[a]"},
		},
		{
			"removed on both sides",
			`{"questions":[{"id":"a"},{"id":"b"}]}`, `{"questions":[{"id":"b"}]}`, `{"questions":[{"id":"b","x":1}]}`,
			`{"questions":[{"id":"b","x":1}]}`, nil,
		},
		{
			"reordered on both sides differently",
			`{"questions":[{"id":"a"},{"id":"b"},{"id":"c"}]}`,
			`{"questions":[{"id":"b"},{"id":"a"},{"id":"c"}]}`,
			`{"questions":[{"id":"a"},{"id":"c"},{"id":"b"}]}`,
			`{"questions":[{"id":"a"},{"id":"c"},{"id":"b"}]}`, []string{"questions"},
		},
		{
			"reordered alike on both sides, an item changed",
			`{"questions":[{"id":"a"},{"id":"b"}]}`,
			`{"questions":[{"id":"b"},{"id":"a","x":1}]}`,
			`{"questions":[{"id":"b","y":1},{"id":"a"}]}`,
			`{"questions":[{"id":"b","y":1},{"id":"a","x":1}]}`, nil,
		},
		{
			"options by value",
			`{"options":[{"value":"x"},{"value":"y"}]}`,
			`{"options":[{"value":"x","description":"an x"},{"value":"y"}]}`,
			`{"options":[{"value":"x"},{"value":"y"},{"value":"z"}]}`,
			`{"options":[{"value":"x","description":"an x"},{"value":"y"},{"value":"z"}]}`, nil,
		},
		{
			"an option added on each side",
			`{"options":[{"value":"x"}]}`, `{"options":[{"value":"x"},{"value":"t"}]}`, `{"options":[{"value":"x"},{"value":"m"}]}`,
			`{"options":[{"value":"x"},{"value":"t"},{"value":"m"}]}`, nil,
		},
		{
			"the same option's description",
			`{"options":[{"value":"x"}]}`, `{"options":[{"value":"x","description":"t"}]}`, `{"options":[{"value":"x","description":"m"}]}`,
			`{"options":[{"value":"x","description":"m"}]}`, []string{"options[x].description"},
		},
		{"strings as a set", `{"tags":["a","b"]}`, `{"tags":["a","b","t"]}`, `{"tags":["b"]}`, `{"tags":["b","t"]}`, nil},
		{"duplicates: one value", `{"tags":["a","a"]}`, `{"tags":["a"]}`, `{"tags":["a","a","b"]}`, `{"tags":["a","a","b"]}`, []string{"tags"}},
		{"arrays without identity: one value", `{"m":[1,2]}`, `{"m":[1,3]}`, `{"m":[2,2]}`, `{"m":[2,2]}`, []string{"m"}},
		{"arrays without identity, one side", `{"m":[1,2]}`, `{"m":[1,3]}`, `{"m":[1,2]}`, `{"m":[1,3]}`, nil},
		{"arrays made on both sides", `{}`, `{"tags":["a"]}`, `{"tags":["b"]}`, `{"tags":["a","b"]}`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, conflicts := jsonmerge.Merge(decode(t, tt.base), decode(t, tt.theirs), decode(t, tt.mine), jsonmerge.Options{Identity: byValue})
			if !jsonmerge.Equal(encode(t, got), encode(t, decode(t, tt.want))) {
				t.Errorf("merged:\n got %s\nwant %s", encode(t, got), encode(t, decode(t, tt.want)))
			}
			var paths []string
			for _, c := range conflicts {
				paths = append(paths, c.Path.String())
			}
			if !slices.Equal(paths, tt.conflicts) {
				t.Errorf("conflicts %q, want %q", paths, tt.conflicts)
			}
			// The same merge the other way round conflicts at the same places.
			_, back := jsonmerge.Merge(decode(t, tt.base), decode(t, tt.mine), decode(t, tt.theirs), jsonmerge.Options{Identity: byValue})
			if len(back) != len(conflicts) {
				t.Errorf("the other way round: %d conflicts, want %d", len(back), len(conflicts))
			}
		})
	}
}

func TestConflictValues(t *testing.T) {
	_, conflicts := jsonmerge.Merge(decode(t, `{"a":{"b":"x"},"r":1}`), decode(t, `{"a":{"b":"t"}}`), decode(t, `{"a":{"b":"m"},"r":2}`), jsonmerge.Options{})
	if len(conflicts) != 2 {
		t.Fatalf("conflicts: %+v", conflicts)
	}
	c := conflicts[0]
	if c.Path.String() != "a.b" || c.Base != "x" || c.Theirs != "t" || c.Mine != "m" || c.Order {
		t.Errorf("a.b: %+v", c)
	}
	if c := conflicts[1]; c.Path.String() != "r" || c.Theirs != (jsonmerge.Absent{}) || fmt.Sprint(c.Mine) != "2" {
		t.Errorf("r: %+v", c)
	}
	out, cs, err := jsonmerge.MergeJSON([]byte(`{"a":1}`), []byte(`{"a":1,"b":[1]}`), []byte(`{"a":2}`), jsonmerge.Options{})
	if err != nil || string(out) != `{"a":2,"b":[1]}` || len(cs) != 0 {
		t.Errorf("MergeJSON: %s %v %v", out, cs, err)
	}
	if _, _, err := jsonmerge.MergeJSON([]byte(`{`), []byte(`{}`), []byte(`{}`), jsonmerge.Options{}); err == nil {
		t.Error("a broken document merged")
	}
	p := jsonmerge.Path{{Key: "questions"}, {Key: "nps", Item: true}, {Key: "title"}}
	if p.String() != "questions[nps].title" {
		t.Errorf("path: %s", p)
	}
}

// FuzzMerge checks the merge's laws on any three documents: no change on either side gives the
// document; a side alone changed gives that side; both changed alike gives that; and the same
// places conflict whichever side is called mine.
func FuzzMerge(f *testing.F) {
	f.Add(`{"a":1,"q":[{"id":"x","t":"1"},{"id":"y"}]}`, `{"a":2,"q":[{"id":"y"},{"id":"x","t":"1"}]}`, `{"a":1,"q":[{"id":"x","t":"2"},{"id":"z"}]}`)
	f.Add(`{"tags":["a","b"],"o":{"p":null}}`, `{"tags":["b","a"],"o":{"p":1}}`, `{"tags":["a","c"],"o":{"p":2}}`)
	f.Add(`[1,2,3]`, `[1,2]`, `[1,2,3,4]`)
	f.Add(`{"questions":[{"id":"a","options":[{"value":"x"}]}]}`, `{"questions":[]}`, `{"questions":[{"id":"a","options":[{"value":"x"},{"value":"y"}]}]}`)
	f.Add(`null`, `{"a":1}`, `{"b":2}`)
	f.Add(`"s"`, `true`, `false`)
	f.Fuzz(func(t *testing.T, base, theirs, mine string) {
		var docs [3]any
		for i, s := range []string{base, theirs, mine} {
			d := json.NewDecoder(strings.NewReader(s))
			d.UseNumber()
			if d.Decode(&docs[i]) != nil || d.More() {
				t.Skip()
			}
		}
		b, th, mi := docs[0], docs[1], docs[2]
		o := jsonmerge.Options{Identity: byValue}
		same := func(what string, got any, conflicts []jsonmerge.Conflict, want any) {
			t.Helper()
			if len(conflicts) != 0 || !jsonmerge.Equal(canon(t, got), canon(t, want)) {
				t.Errorf("%s: got %s with %d conflicts, want %s", what, canon(t, got), len(conflicts), canon(t, want))
			}
		}
		got, cs := jsonmerge.Merge(b, b, b, o)
		same("no change", got, cs, b)
		got, cs = jsonmerge.Merge(b, b, mi, o)
		same("theirs is base", got, cs, mi)
		got, cs = jsonmerge.Merge(b, th, b, o)
		same("mine is base", got, cs, th)
		got, cs = jsonmerge.Merge(b, mi, mi, o)
		same("alike", got, cs, mi)
		_, one := jsonmerge.Merge(b, th, mi, o)
		_, other := jsonmerge.Merge(b, mi, th, o)
		paths := func(cs []jsonmerge.Conflict) []string {
			var out []string
			for _, c := range cs {
				out = append(out, c.Path.String()+fmt.Sprint(c.Order))
			}
			slices.Sort(out)
			return out
		}
		if !slices.Equal(paths(one), paths(other)) {
			t.Errorf("conflicts are not symmetric: %q and %q", paths(one), paths(other))
		}
		for i, c := range one {
			if d := other[slices.IndexFunc(other, func(d jsonmerge.Conflict) bool { return d.Path.String() == c.Path.String() && d.Order == c.Order })]; !jsonmerge.Equal(canon(t, d.Theirs), canon(t, c.Mine)) {
				t.Errorf("conflict %d: the sides are not swapped: %+v and %+v", i, c, d)
			}
		}
	})
}

// canon encodes a value, for comparing whole documents.
func canon(t testing.TB, v any) string {
	if v == (jsonmerge.Absent{}) {
		return "<absent>"
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	// Numbers written differently ("1.0", "1") decode as the same number.
	var n any
	_ = json.Unmarshal(b.Bytes(), &n)
	out, _ := json.Marshal(n)
	return string(out)
}
