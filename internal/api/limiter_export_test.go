package api

// RateLimitBuckets reports how many rate-limit buckets h keeps, for tests of its memory.
func (h *Handler) RateLimitBuckets() int {
	if h.limiter == nil {
		return 0
	}
	return h.limiter.size()
}
