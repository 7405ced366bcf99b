package personcache

import (
	"fmt"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// reader counts the reads of a person and returns them with their number as views.
type reader struct{ n int }

func (r *reader) read() (store.Person, error) {
	r.n++
	return store.Person{Surveys: map[string]store.Seen{"s": {Views: r.n}}}, nil
}

func views(t *testing.T, c *Cache, team, who string, asked []string, read func() (store.Person, error)) int {
	t.Helper()
	p, err := c.Person(team, who, asked, read)
	if err != nil {
		t.Fatal(err)
	}
	return p.Surveys["s"].Views
}

// A person is read once, then served from memory until dropped, the TTL runs out, another team
// or another survey is asked about.
func TestServedUntilDropped(t *testing.T) {
	c := New(time.Second)
	now := time.Unix(1_800_000_000, 0)
	c.now = func() time.Time { return now }
	var r reader
	for range 3 {
		if got := views(t, c, "a", "ann", []string{"s"}, r.read); got != 1 || r.n != 1 {
			t.Fatalf("asked again: %d views, %d reads; want the first read's", got, r.n)
		}
	}
	if views(t, c, "a", "ann", nil, r.read); r.n != 1 {
		t.Errorf("asked of fewer surveys: %d reads, want none more", r.n)
	}
	if views(t, c, "a", "ann", []string{"s", "t"}, r.read); r.n != 2 {
		t.Errorf("asked of a survey the entry does not answer: %d reads, want a read", r.n)
	}
	if views(t, c, "b", "ann", []string{"s"}, r.read); r.n != 3 {
		t.Errorf("another team: %d reads, want a read", r.n)
	}
	c.Drop("ann")
	if got := views(t, c, "b", "ann", []string{"s"}, r.read); got != 4 {
		t.Errorf("after a drop: %d views, want a new read", got)
	}
	now = now.Add(time.Second)
	if got := views(t, c, "b", "ann", []string{"s"}, r.read); got != 5 {
		t.Errorf("after the TTL: %d views, want a new read", got)
	}
	c.DropAll()
	if got := views(t, c, "b", "ann", []string{"s"}, r.read); got != 6 {
		t.Errorf("after dropping all: %d views, want a new read", got)
	}
}

// A read during which a write of the person committed (and dropped them) is returned but not
// kept: the next ask reads again.
func TestReadRacingAWriteIsNotKept(t *testing.T) {
	c := New(time.Minute)
	var r reader
	racing := func() (store.Person, error) {
		p, err := r.read()
		c.Drop("ann") // a write committed while the read was under way
		return p, err
	}
	views(t, c, "a", "ann", []string{"s"}, racing)
	if got := views(t, c, "a", "ann", []string{"s"}, r.read); got != 2 {
		t.Errorf("after a read that raced a write: %d views, want a new read", got)
	}
	if got := views(t, c, "a", "ann", []string{"s"}, r.read); got != 2 {
		t.Errorf("then: %d views, want the second read kept", got)
	}
}

// Responded holds only the surveys asked, as a read of them would; the cache stays bounded; a
// nil Cache reads every time.
func TestAnswersAndBounds(t *testing.T) {
	c := New(time.Minute)
	read := func() (store.Person, error) {
		return store.Person{Responded: map[string]bool{"s": true, "t": true}}, nil
	}
	if _, err := c.Person("a", "ann", []string{"s", "t"}, read); err != nil {
		t.Fatal(err)
	}
	if p, _ := c.Person("a", "ann", []string{"t"}, nil); len(p.Responded) != 1 || !p.Responded["t"] {
		t.Errorf("asked of one of two: %v, want only it", p.Responded)
	}
	for i := range MaxEntries + 100 {
		if _, err := c.Person("a", fmt.Sprint("p", i), nil, read); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for i := range c.shards {
		n += len(c.shards[i].entries)
	}
	if n > MaxEntries {
		t.Errorf("%d people kept, want at most %d", n, MaxEntries)
	}
	var none *Cache
	var r reader
	views(t, none, "a", "ann", nil, r.read)
	if views(t, none, "a", "ann", nil, r.read); r.n != 2 {
		t.Errorf("a nil Cache: %d reads, want every ask read", r.n)
	}
}
