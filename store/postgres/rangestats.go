package postgres

import (
	"context"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// RangeStats implements store.Store, through the indexes of events and responses by time.
func (s *Store) RangeStats(ctx context.Context, surveyID string, from, to time.Time) (store.Stats, error) {
	if err := s.checkOpen("read stats"); err != nil {
		return store.Stats{}, err
	}
	st, err := sqlrow.ScanRangeStats(s.pool.QueryRow(ctx, sqlrow.RangeStatsSQL("$1", "$2", "$3"), surveyID, sqlrow.MS(from), sqlrow.MS(to)))
	return st, s.mapErr(err, "stats of survey "+surveyID)
}
