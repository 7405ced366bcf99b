// Package personcache keeps, in memory, what targeting read of people (store.Targeter's
// Person), so that POST /v1/svc/next-survey does not read the database for a person it asked
// about a moment ago. Each backend drops a person's entry once a write that changes what
// Person returns of them has committed, before the write returns: a decision that begins after
// a write was acknowledged never sees what was cached before it.
//
// A read that was under way when such a write committed must not put what it read back into the
// cache: each shard counts the drops it has had, a read notes the count before it reads, and
// what it read is kept only when the count has not moved since.
package personcache

import (
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"github.com/svc-feedback/svc/store"
)

// shards spreads people over locks, so that concurrent asks and writes seldom meet.
const shards = 32

// MaxEntries bounds how many people a Cache holds: an ask names any respondent it likes.
const MaxEntries = 64 << 10

// Cache keeps people by respondent, for a team each. The zero value is not usable; a nil
// *Cache keeps nothing.
type Cache struct {
	ttl    time.Duration
	now    func() time.Time
	seed   maphash.Seed
	shards [shards]shard
}

type shard struct {
	mu      sync.Mutex
	drops   uint64
	entries map[string]*entry
}

type entry struct {
	team   string
	asked  []string // the surveys whose Responded the read answered
	person store.Person
	at     time.Time
}

// New returns a Cache whose entries are served for ttl after their read (which bounds how long
// a change that no drop announces, by a process that shares the database, takes to show), or
// nil, which keeps nothing, for a ttl of zero or less.
func New(ttl time.Duration) *Cache {
	if ttl <= 0 {
		return nil
	}
	c := &Cache{ttl: ttl, now: time.Now, seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].entries = make(map[string]*entry)
	}
	return c
}

func (c *Cache) shard(respondent string) *shard {
	return &c.shards[maphash.String(c.seed, respondent)%shards]
}

// Person returns the team's person from memory when an entry read within the TTL answers
// every survey asked, or else from read, keeping what it returns unless a drop of the person
// came meanwhile. What it returns is shared: callers must not change it.
func (c *Cache) Person(teamID, respondent string, asked []string, read func() (store.Person, error)) (store.Person, error) {
	if c == nil {
		return read()
	}
	sh := c.shard(respondent)
	now := c.now()
	sh.mu.Lock()
	e, ok := sh.entries[respondent]
	drops := sh.drops
	sh.mu.Unlock()
	if ok && e.team == teamID && now.Sub(e.at) < c.ttl && !now.Before(e.at) && answers(e.asked, asked) {
		return e.answer(asked), nil
	}
	p, err := read()
	if err != nil {
		return p, err
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.drops != drops {
		return p, nil // a write of someone in this shard committed meanwhile: p may be older
	}
	if _, ok := sh.entries[respondent]; !ok && len(sh.entries) >= MaxEntries/shards {
		for k := range sh.entries { // an arbitrary one: Go's maps are iterated from a random place
			delete(sh.entries, k)
			break
		}
	}
	sh.entries[respondent] = &entry{team: teamID, asked: slices.Clone(asked), person: p, at: now}
	return p, nil
}

// answer is the entry's person with Responded holding only the surveys asked, as a read of
// them would: the entry may answer more.
func (e *entry) answer(asked []string) store.Person {
	if slices.Equal(e.asked, asked) {
		return e.person
	}
	p := e.person
	p.Responded = nil
	for _, id := range asked {
		if e.person.Responded[id] {
			if p.Responded == nil {
				p.Responded = make(map[string]bool)
			}
			p.Responded[id] = true
		}
	}
	return p
}

// answers reports whether every survey of asked is among had.
func answers(had, asked []string) bool {
	for _, id := range asked {
		if !slices.Contains(had, id) {
			return false
		}
	}
	return true
}

// Drop forgets the people named, of every team. A backend calls it after a write that changes
// them has committed, and before the write returns.
func (c *Cache) Drop(respondents ...string) {
	if c == nil {
		return
	}
	for _, r := range respondents {
		sh := c.shard(r)
		sh.mu.Lock()
		delete(sh.entries, r)
		sh.drops++
		sh.mu.Unlock()
	}
}

// DropAll forgets everyone, after a write that does not say whom it changed (a response deleted
// by id, say).
func (c *Cache) DropAll() {
	if c == nil {
		return
	}
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		clear(sh.entries)
		sh.drops++
		sh.mu.Unlock()
	}
}
