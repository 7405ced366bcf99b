package store

import (
	"context"
	"fmt"
)

// ExportSurveys returns a team's surveys that are not deleted, oldest first, as a fixture
// team, so that surveys can be kept as code and imported elsewhere: with their definitions,
// statuses, webhook URLs and creation times, and without keys, webhook secrets or history,
// which a file kept in a repository must not hold.
func ExportSurveys(ctx context.Context, s Store, teamID string) (FixtureTeam, error) {
	team, err := s.Team(ctx, teamID)
	if err != nil {
		return FixtureTeam{}, fmt.Errorf("export surveys: %w", err)
	}
	ft := FixtureTeam{ID: team.ID, Name: team.Name}
	var cursor *Cursor
	for {
		page, next, err := s.Surveys(ctx, teamID, cursor, 100)
		if err != nil {
			return FixtureTeam{}, fmt.Errorf("export surveys: %w", err)
		}
		for _, sv := range page {
			created := sv.CreatedAt
			ft.Surveys = append(ft.Surveys, FixtureSurvey{ID: sv.ID, Status: sv.Status, Definition: sv.Definition,
				WebhookURL: sv.WebhookURL, WebhookWaitSeconds: sv.WebhookWaitSeconds, CreatedAt: &created})
		}
		if next == nil {
			break
		}
		cursor = next
	}
	// Surveys come newest first; a file reads best oldest first.
	for i, j := 0, len(ft.Surveys)-1; i < j; i, j = i+1, j-1 {
		ft.Surveys[i], ft.Surveys[j] = ft.Surveys[j], ft.Surveys[i]
	}
	return ft, nil
}
