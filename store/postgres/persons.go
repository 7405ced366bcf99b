package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
)

// What targeting read of people (store.Targeter's Person) is kept in memory (personcache), so
// that next-survey does not cost a round trip to the database. It stays exact across
// instances: every write that changes a person announces them on changesChannel in its own
// transaction, so the announcement is delivered once it commits, in commit order; and a Person
// read first waits for a marker it sends to come back through the same listening connection
// (see syncer), after which every announcement committed before the read began has been heard.

// personsTTL bounds how long a person is served from memory. Announcements keep it exact;
// the TTL only bounds the memory of people asked about once.
const personsTTL = 30 * time.Second

// personsPrefix begins an announcement of changed people: a JSON array of respondents, or *
// for everyone.
const personsPrefix = "persons:"

// maxAnnouncement is the longest payload sent: PostgreSQL takes less than 8,000 bytes.
const maxAnnouncement = 7000

// personsPayloads are the announcements that respondents changed: as few as fit.
func personsPayloads(respondents []string) []string {
	var out []string
	var batch []string
	size := 0
	flush := func() {
		if len(batch) > 0 {
			b, _ := json.Marshal(batch) // strings always marshal
			out = append(out, personsPrefix+string(b))
			batch, size = batch[:0], 0
		}
	}
	for _, r := range respondents {
		n := len(r) + 8 // room for quotes, a comma and escapes of a few characters
		if n > maxAnnouncement/2 {
			return []string{personsPrefix + "*"} // a respondent of hostile length: drop everyone
		}
		if size+n > maxAnnouncement {
			flush()
		}
		batch = append(batch, r)
		size += n
	}
	flush()
	return out
}

// queuePersons queues, in a transaction's batch, the announcement that respondents changed.
func queuePersons(b *pgx.Batch, respondents []string) {
	for _, p := range personsPayloads(respondents) {
		b.Queue(`SELECT pg_notify($1, $2)`, changesChannel, p)
	}
}

// notifyPersons announces, in tx, that respondents changed.
func notifyPersons(ctx context.Context, tx pgx.Tx, respondents ...string) error {
	var b pgx.Batch
	queuePersons(&b, respondents)
	return tx.SendBatch(ctx, &b).Close()
}

// dropAnnounced drops the people an announcement names.
func (s *Store) dropAnnounced(list string) {
	if list == "*" {
		s.persons.DropAll()
		return
	}
	var respondents []string
	if err := json.Unmarshal([]byte(list), &respondents); err != nil {
		s.persons.DropAll() // not ours to read: be safe
		return
	}
	s.persons.Drop(respondents...)
}

// Person implements store.Targeter: the person's attributes, prompts and history with the team's
// surveys, from memory when read before and not changed since, else in one statement.
func (s *Store) Person(ctx context.Context, teamID, respondent string, asked []string) (store.Person, error) {
	if err := s.checkOpen("read person"); err != nil {
		return store.Person{}, err
	}
	read := func() (store.Person, error) { return s.readPerson(ctx, teamID, respondent, asked) }
	if !s.sync.wait(ctx) {
		return read() // what other instances changed cannot be known to have been heard
	}
	return s.persons.Person(teamID, respondent, asked, read)
}
