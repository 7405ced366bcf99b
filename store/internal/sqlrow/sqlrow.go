// Package sqlrow holds what the SQL Stores do alike with their rows: surveys to and from
// their columns, the scores of a response, a page cut at its limit. The backends then differ
// only in their queries and how they send them.
package sqlrow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/internal/jsonappend"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Scanner is a row of any of the drivers (database/sql's rows, pgx's).
type Scanner interface {
	Scan(dest ...any) error
}

// SurveyColumns are the columns of the surveys table that ScanSurvey reads, in its order.
const SurveyColumns = `id, team_id, status, definition, webhook_url, webhook_secret, previous_secret,
	previous_secret_expiry, webhook_wait_seconds, created_at, updated_at`

// ScanSurvey reads a survey from a row of SurveyColumns. Times are Unix milliseconds; an expiry
// of 0 is none.
func ScanSurvey(row Scanner) (store.Survey, error) {
	var (
		sv                        store.Survey
		status                    string
		def                       []byte
		expiry, created, modified int64
	)
	if err := row.Scan(&sv.ID, &sv.TeamID, &status, &def, &sv.WebhookURL, &sv.WebhookSecret,
		&sv.PreviousWebhookSecret, &expiry, &sv.WebhookWaitSeconds, &created, &modified); err != nil {
		return store.Survey{}, err
	}
	if err := json.Unmarshal(def, &sv.Definition); err != nil {
		return store.Survey{}, fmt.Errorf("survey %s: stored definition: %w", sv.ID, err)
	}
	sv.Status = store.Status(status)
	if expiry != 0 {
		sv.PreviousSecretExpiresAt = FromMS(expiry)
	}
	sv.CreatedAt, sv.UpdatedAt = FromMS(created), FromMS(modified)
	return sv, nil
}

// EncodeSurvey normalizes and validates a survey as it is saved, and encodes its definition.
func EncodeSurvey(sv *store.Survey) ([]byte, error) {
	return encodeSurvey(sv, sv.Validate)
}

// EncodeChange is EncodeSurvey for a change of a stored survey whose definition's JSON was
// before: a definition left as it was is not checked again (see store.Survey.ValidateChange).
func EncodeChange(sv *store.Survey, before []byte) ([]byte, error) {
	return encodeSurvey(sv, func() error { return sv.ValidateChange(before) })
}

func encodeSurvey(sv *store.Survey, validate func() error) ([]byte, error) {
	sv.Definition.Normalize()
	if err := validate(); err != nil {
		return nil, err
	}
	def, err := json.Marshal(sv.Definition)
	if err != nil {
		return nil, fmt.Errorf("survey %s: %w", sv.ID, err)
	}
	return def, nil
}

// OfTeam returns a survey read by its id when it is the team's, else store.ErrNotFound, as
// every Store answers for another team's survey.
func OfTeam(sv store.Survey, err error, teamID string) (store.Survey, error) {
	if err != nil {
		return store.Survey{}, err
	}
	if sv.TeamID != teamID {
		return store.Survey{}, fmt.Errorf("survey %s: %w", sv.ID, store.ErrNotFound)
	}
	return sv, nil
}

// Trim cuts a page fetched with one item more than limit, returning the cursor of its last item
// when there was more.
func Trim[T any](page []T, limit int, cursor func(T) store.Cursor) ([]T, *store.Cursor) {
	if len(page) <= limit {
		return page, nil
	}
	page = page[:limit]
	c := cursor(page[limit-1])
	return page, &c
}

// StoredCounts are the counts (store.ResponseCounts) of a response's stored data, which it decodes
// with r: a Reader that serves the caller's goroutine, kept from one call to the next, or nil
// for one of its own.
func StoredCounts(r *answerjson.Reader, def *survey.Definition, data []byte, finished bool) ([]store.Count, error) {
	a, err := r.Decode(data)
	if err != nil {
		return nil, err
	}
	return store.ResponseCounts(def, a, finished), nil
}

// AddKeyCounts adds sign times what a stored response adds under key (store.ResponseCounts) to
// counts, dropping numbers that come to zero: a store's count of the part of a minute at a
// range's edge.
// It decodes data with r, as StoredCounts does.
func AddKeyCounts(r *answerjson.Reader, counts map[int]int64, sign int64, def *survey.Definition, key string, data []byte, finished bool) error {
	cs, err := StoredCounts(r, def, data, finished)
	if err != nil {
		return err
	}
	for _, c := range cs {
		if c.Key == key {
			if counts[c.N] += sign; counts[c.N] == 0 {
				delete(counts, c.N)
			}
		}
	}
	return nil
}

// Changed is what moves between the counts of a response before and after a write: old less
// what stays, and new less what was there, so an update that changes one answer touches only
// that answer's counts.
func Changed(old, new []store.Count) (gone, added []store.Count) {
	left := make(map[store.Count]int, len(old))
	for _, c := range old {
		left[c]++
	}
	for _, c := range new {
		if left[c] > 0 {
			left[c]--
			continue
		}
		added = append(added, c)
	}
	for _, c := range old {
		if left[c] > 0 {
			left[c]--
			gone = append(gone, c)
		}
	}
	return gone, added
}

// MS is a time as the stores keep it: Unix milliseconds.
func MS(t time.Time) int64 { return t.UnixMilli() }

// FromMS is the UTC time of Unix milliseconds.
func FromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// FromNullMS is a nullable stored time: nil for NULL. Both drivers scan NULL into a nil
// *int64.
func FromNullMS(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := FromMS(*v)
	return &t
}

// NullMS is a nullable time as stored: nil for NULL.
func NullMS(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	ms := MS(*t)
	return &ms
}

// SettingsSQL is the query of a team's settings, the defaults when it has none, for a driver
// whose placeholder for the team is p1; its row scans with ScanSettings. A team that does not
// exist has no row.
func SettingsSQL(p1 string) string {
	return `SELECT COALESCE(ts.cooldown_days, 0), COALESCE(ts.segments, ''), COALESCE(ts.segments_gen, 0), ts.updated_at FROM teams AS t
		LEFT JOIN team_settings AS ts ON ts.team_id = t.id WHERE t.id = ` + p1
}

// ScanSettings reads a row of SettingsSQL.
func ScanSettings(row Scanner) (store.TeamSettings, error) {
	var st store.TeamSettings
	var updated *int64
	var segments string
	if err := row.Scan(&st.CooldownDays, &segments, &st.SegmentsGeneration, &updated); err != nil {
		return store.TeamSettings{}, err
	}
	if segments != "" {
		if err := json.Unmarshal([]byte(segments), &st.Segments); err != nil {
			return store.TeamSettings{}, fmt.Errorf("stored segments: %w", err)
		}
	}
	if updated != nil {
		st.UpdatedAt = FromMS(*updated)
	}
	return st, nil
}

// SettingsChange is what ModifySettings stores of settings changed from before to after: the
// segments as stored (a JSON array, "" for none) and their generation, moved forward by one
// when they changed.
func SettingsChange(before store.TeamSettings, after *store.TeamSettings) string {
	after.SegmentsGeneration = before.SegmentsGeneration
	if !slices.Equal(before.Segments, after.Segments) {
		after.SegmentsGeneration++
	}
	if len(after.Segments) == 0 {
		after.Segments = nil
		return ""
	}
	b, _ := json.Marshal(after.Segments) // strings always marshal
	return string(b)
}

// RulesVersionSQL reads what store.RulesVersioner's version is made of, p1 the team's id:
// the count of its active surveys, and the sum and the greatest of their updated_at.
func RulesVersionSQL(p1 string) string {
	return `SELECT COUNT(*), CAST(COALESCE(SUM(updated_at), 0) AS BIGINT), COALESCE(MAX(updated_at), 0)
		FROM surveys WHERE team_id = ` + p1 + ` AND status = 'active'`
}

// ScanRulesVersion reads a row of RulesVersionSQL as the version.
func ScanRulesVersion(row Scanner) (string, error) {
	var n, sum, last int64
	if err := row.Scan(&n, &sum, &last); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d/%d/%d", n, sum, last), nil
}

// LinkSecretsSQL reads a team's link secrets, p1 its id; ScanLinkSecrets reads the row.
func LinkSecretsSQL(p1 string) string {
	return `SELECT secret, previous_secret, previous_expires_at FROM link_secrets WHERE team_id = ` + p1
}

// RotateLinkSecretSQL makes team p1's link secret p2, keeping the one it replaces until p3
// (Unix milliseconds), and returns the secrets as ScanLinkSecrets reads them.
func RotateLinkSecretSQL(p1, p2, p3 string) string {
	return `INSERT INTO link_secrets (team_id, secret) VALUES (` + p1 + `, ` + p2 + `)
		ON CONFLICT (team_id) DO UPDATE SET previous_secret = link_secrets.secret, previous_expires_at = ` + p3 + `, secret = excluded.secret
		RETURNING secret, previous_secret, previous_expires_at`
}

// ScanLinkSecrets reads a row of LinkSecretsSQL or RotateLinkSecretSQL.
func ScanLinkSecrets(row Scanner) (store.LinkSecrets, error) {
	var (
		l       store.LinkSecrets
		expires int64
	)
	if err := row.Scan(&l.Secret, &l.Previous, &expires); err != nil {
		return store.LinkSecrets{}, err
	}
	l.PreviousExpiresAt = FromMS(expires)
	return l, nil
}

// KeyColumns are the columns of the api_keys table that ScanKey reads, in its order.
const KeyColumns = `id, team_id, kind, hint, created_at, revoked_at`

// ScanKey reads a key from a row of KeyColumns.
func ScanKey(row Scanner) (store.Key, error) {
	var (
		k       store.Key
		kind    string
		created int64
		revoked *int64
	)
	if err := row.Scan(&k.ID, &k.TeamID, &kind, &k.Hint, &created, &revoked); err != nil {
		return store.Key{}, err
	}
	k.Kind, k.CreatedAt, k.RevokedAt = store.KeyKind(kind), FromMS(created), FromNullMS(revoked)
	return k, nil
}

// DeliveryColumns are the columns ScanDelivery reads, of deliveries d joined with their
// surveys s (for the team).
const DeliveryColumns = `d.id, d.survey_id, s.team_id, d.response_id, d.state, d.attempts, d.round_attempts, d.last_status,
	d.last_error, d.next_attempt_at, d.created_at, d.updated_at, d.delivered_at`

// ScanDelivery reads a delivery from a row of DeliveryColumns.
func ScanDelivery(row Scanner) (store.Delivery, error) {
	var (
		d                     store.Delivery
		state                 string
		next, created, update int64
		delivered             *int64
	)
	if err := row.Scan(&d.ID, &d.SurveyID, &d.TeamID, &d.ResponseID, &state, &d.Attempts, &d.RoundAttempts, &d.LastStatus,
		&d.LastError, &next, &created, &update, &delivered); err != nil {
		return store.Delivery{}, err
	}
	d.State = store.DeliveryState(state)
	d.NextAttemptAt, d.CreatedAt, d.UpdatedAt, d.DeliveredAt = FromMS(next), FromMS(created), FromMS(update), FromNullMS(delivered)
	return d, nil
}

// EncodeWrite encodes a response write's answers and metadata (nil metadata as {}) into one
// buffer sized for a typical response. data is capped, so that appending to it cannot
// overwrite the metadata.
func EncodeWrite(w store.ResponseWrite) (data, meta []byte, err error) {
	buf, err := w.Data.AppendJSON(make([]byte, 0, 512))
	if err != nil {
		return nil, nil, fmt.Errorf("response %s: %w", w.ID, err)
	}
	n := len(buf)
	if w.Metadata == nil {
		buf = append(buf, "{}"...)
	} else {
		buf = jsonappend.StringMap(buf, w.Metadata)
	}
	return buf[:n:n], buf[n:], nil
}

// RangeStatsSQL is the query of store.Store.RangeStats, for a driver whose placeholders for the
// survey, the start and the end are p1, p2 and p3; its row scans with ScanRangeStats.
func RangeStatsSQL(p1, p2, p3 string) string {
	in := "survey_id = " + p1 + " AND created_at >= " + p2 + " AND created_at < " + p3
	return `SELECT
		(SELECT COUNT(*) FROM events WHERE ` + in + ` AND type = 'view'),
		(SELECT COUNT(DISTINCT respondent) FROM events WHERE ` + in + ` AND type = 'view'),
		(SELECT COUNT(*) FROM events WHERE ` + in + ` AND type = 'dismiss'),
		(SELECT COUNT(DISTINCT respondent) FROM events WHERE ` + in + ` AND type = 'dismiss'),
		(SELECT COUNT(*) FROM responses WHERE ` + in + `),
		(SELECT COUNT(DISTINCT respondent) FROM responses WHERE ` + in + `),
		(SELECT COUNT(*) FROM responses WHERE ` + in + ` AND finished)`
}

// ScanRangeStats reads a row of RangeStatsSQL.
func ScanRangeStats(row Scanner) (store.Stats, error) {
	var st store.Stats
	err := row.Scan(&st.TotalViews, &st.UniqueViewers, &st.TotalDismissals, &st.UniqueDismissers,
		&st.TotalResponses, &st.UniqueResponders, &st.FinishedResponses)
	return st, err
}

// DecodePerson makes a store.Person of what a single statement read of a person: their
// attributes (a JSON object, or nil), their prompts (a JSON array of [id, survey_id, created_at,
// expires_at]) and their rows of respondents (a JSON array of [survey_id, views, last_viewed_at,
// last_dismissed_at]), and the ids of the surveys asked they responded to (a JSON array).
func DecodePerson(teamID, respondent string, attrs, prompts, seen, responded []byte) (store.Person, error) {
	var p store.Person
	if len(attrs) > 0 {
		if err := json.Unmarshal(attrs, &p.Attributes); err != nil {
			return store.Person{}, fmt.Errorf("attributes: %w", err)
		}
	}
	var rows [][4]any
	if err := unmarshalNumbers(prompts, &rows); err != nil {
		return store.Person{}, fmt.Errorf("prompts: %w", err)
	}
	for _, r := range rows {
		id, _ := r[0].(string)
		surveyID, _ := r[1].(string)
		pr := store.Prompt{ID: id, TeamID: teamID, SurveyID: surveyID, Respondent: respondent, CreatedAt: fromNumber(r[2])}
		if r[3] != nil {
			t := fromNumber(r[3])
			pr.ExpiresAt = &t
		}
		p.Prompts = append(p.Prompts, pr)
	}
	rows = rows[:0]
	if err := unmarshalNumbers(seen, &rows); err != nil {
		return store.Person{}, fmt.Errorf("history: %w", err)
	}
	for _, r := range rows {
		surveyID, _ := r[0].(string)
		views, _ := r[1].(json.Number).Int64()
		s := store.Seen{Views: int(views)}
		if r[2] != nil {
			s.LastViewed = fromNumber(r[2])
		}
		if r[3] != nil {
			s.LastDismissed = fromNumber(r[3])
		}
		if p.Surveys == nil {
			p.Surveys = map[string]store.Seen{}
		}
		p.Surveys[surveyID] = s
	}
	var ids []string
	if err := unmarshalNumbers(responded, &ids); err != nil {
		return store.Person{}, fmt.Errorf("responses: %w", err)
	}
	for _, id := range ids {
		if p.Responded == nil {
			p.Responded = map[string]bool{}
		}
		p.Responded[id] = true
	}
	return p, nil
}

// unmarshalNumbers decodes b (nil for an empty list) with numbers kept as written.
func unmarshalNumbers(b []byte, v any) error {
	if len(b) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// fromNumber is a time stored as Unix milliseconds, decoded as a json.Number.
func fromNumber(v any) time.Time {
	n, _ := v.(json.Number)
	ms, _ := n.Int64()
	return FromMS(ms)
}

// ScanSurveyRules reads a row of a team's active surveys' rules: id, created_at, updated_at,
// and the definition's display member as JSON (NULL or null for none).
func ScanSurveyRules(row Scanner) (store.SurveyRules, error) {
	var (
		r                 store.SurveyRules
		created, modified int64
		display           []byte
	)
	if err := row.Scan(&r.ID, &created, &modified, &display); err != nil {
		return store.SurveyRules{}, err
	}
	r.CreatedAt, r.UpdatedAt = FromMS(created), FromMS(modified)
	if len(display) > 0 && string(display) != "null" {
		r.Display = new(survey.Display)
		if err := json.Unmarshal(display, r.Display); err != nil {
			return store.SurveyRules{}, fmt.Errorf("survey %s: stored display rules: %w", r.ID, err)
		}
	}
	return r, nil
}

// TimeBounds returns the creation-time bounds a page query of q writes (zero for none): q's,
// less the one its cursor makes redundant. Past the first page the cursor bounds the side the
// page moves towards, and more tightly; given both, SQLite's planner seeks to the time bound and
// reads every row up to the cursor, which made each page of a ranged export read the range
// from its start, and the whole export quadratic.
func TimeBounds(q store.ResponseQuery) (after, before time.Time) {
	after, before = q.After, q.Before
	if q.Cursor == nil {
		return after, before
	}
	if q.Oldest && !q.Cursor.CreatedAt.Before(after) {
		after = time.Time{}
	}
	if !q.Oldest && (before.IsZero() || !q.Cursor.CreatedAt.After(before)) {
		before = time.Time{}
	}
	return after, before
}
