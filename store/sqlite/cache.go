package sqlite

import (
	"slices"
	"sync"
	"time"

	"github.com/svc-feedback/svc/store"
)

// readCache keeps recently read keys and surveys, which every widget request needs, in
// memory. Writes through this Store drop what they change at once; entries also expire after
// the TTL, so changes made by another process sharing the database show within it.
type readCache struct {
	ttl     time.Duration
	mu      sync.RWMutex
	keys    map[string]cachedKey // by key hash
	surveys map[string]cachedSurvey
}

type cachedKey struct {
	key store.Key
	at  time.Time
}

type cachedSurvey struct {
	survey store.Survey
	at     time.Time
}

func newReadCache(ttl time.Duration) *readCache {
	return &readCache{ttl: ttl, keys: make(map[string]cachedKey), surveys: make(map[string]cachedSurvey)}
}

func (c *readCache) key(hash string) (store.Key, bool) {
	if c.ttl <= 0 {
		return store.Key{}, false
	}
	c.mu.RLock()
	e, ok := c.keys[hash]
	c.mu.RUnlock()
	if !ok || time.Since(e.at) > c.ttl {
		return store.Key{}, false
	}
	return e.key, true
}

// putKey remembers a live key. Unknown keys are never cached, so random keys sent by a
// client cannot grow the cache.
func (c *readCache) putKey(hash string, k store.Key) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	c.keys[hash] = cachedKey{k, time.Now()}
	c.mu.Unlock()
}

func (c *readCache) dropKeys() {
	c.mu.Lock()
	clear(c.keys)
	c.mu.Unlock()
}

// survey returns a cached survey, shared with the cache: the caller must treat it as
// read-only (Store.Survey hands callers their own copy of the questions).
func (c *readCache) survey(id string) (store.Survey, bool) {
	if c.ttl <= 0 {
		return store.Survey{}, false
	}
	c.mu.RLock()
	e, ok := c.surveys[id]
	c.mu.RUnlock()
	if !ok || time.Since(e.at) > c.ttl {
		return store.Survey{}, false
	}
	return e.survey, true
}

func (c *readCache) putSurvey(sv store.Survey) {
	if c.ttl <= 0 {
		return
	}
	sv.Questions = slices.Clone(sv.Questions)
	c.mu.Lock()
	c.surveys[sv.ID] = cachedSurvey{sv, time.Now()}
	c.mu.Unlock()
}

func (c *readCache) dropSurvey(id string) {
	c.mu.Lock()
	delete(c.surveys, id)
	c.mu.Unlock()
}
