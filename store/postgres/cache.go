package postgres

import (
	"sync"
	"time"

	"github.com/svc-feedback/svc/store"
)

// cacheTTL bounds how long a survey or key read from the database is reused. This process's
// own changes drop its entries at once; another instance's are seen within the TTL, well inside
// the second svc promises (docs/operating.md#limits).
const cacheTTL = 500 * time.Millisecond

// maxCached bounds each map of the cache; past it the map starts over.
const maxCached = 10_000

// readCache keeps surveys by id and keys by hash, each with the time it was read.
type readCache struct {
	mu      sync.Mutex
	surveys map[string]cached[store.Survey]
	keys    map[string]cached[store.Key]
}

type cached[T any] struct {
	v  T
	at time.Time
}

func newReadCache() *readCache {
	return &readCache{surveys: map[string]cached[store.Survey]{}, keys: map[string]cached[store.Key]{}}
}

// get reads key k of the map that pick returns, picked under the lock, since dropping
// replaces the maps.
func get[T any](c *readCache, pick func() map[string]cached[T], k string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := pick()[k]
	if !ok || time.Since(e.at) > cacheTTL {
		var zero T
		return zero, false
	}
	return e.v, true
}

func put[T any](c *readCache, m *map[string]cached[T], k string, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(*m) >= maxCached {
		*m = map[string]cached[T]{}
	}
	(*m)[k] = cached[T]{v, time.Now()}
}

func (c *readCache) survey(id string) (store.Survey, bool) {
	return get(c, func() map[string]cached[store.Survey] { return c.surveys }, id)
}
func (c *readCache) putSurvey(sv store.Survey) { put(c, &c.surveys, sv.ID, sv) }
func (c *readCache) key(hash string) (store.Key, bool) {
	return get(c, func() map[string]cached[store.Key] { return c.keys }, hash)
}
func (c *readCache) putKey(hash string, k store.Key) { put(c, &c.keys, hash, k) }

func (c *readCache) dropSurvey(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.surveys, id)
}

func (c *readCache) dropKeys() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys = map[string]cached[store.Key]{}
}

func (c *readCache) dropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.surveys = map[string]cached[store.Survey]{}
	c.keys = map[string]cached[store.Key]{}
}
