package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// RangeStats implements store.Store, through the indexes of events and responses by time.
func (s *Store) RangeStats(ctx context.Context, surveyID string, from, to time.Time) (store.Stats, error) {
	if err := s.checkOpen("read stats"); err != nil {
		return store.Stats{}, err
	}
	var st store.Stats
	err := s.read(surveyID, func(pool *pgxpool.Pool) (err error) {
		st, err = sqlrow.ScanRangeStats(pool.QueryRow(ctx, sqlrow.RangeStatsSQL("$1", "$2", "$3"), surveyID, sqlrow.MS(from), sqlrow.MS(to)))
		return err
	})
	return st, s.mapErr(err, "stats of survey "+surveyID)
}
