package delivery

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
	"github.com/svc-feedback/svc/webhookverify"
)

// Payload builds the response.created body: answers in question position order (answers to
// questions no longer in the survey last, by id), each raw and JSON-stringified.
func Payload(sv store.Survey, team store.Team, resp store.Response, at time.Time) ([]byte, error) {
	answers, err := resp.Answers()
	if err != nil {
		return nil, fmt.Errorf("decode answers of %s: %w", resp.ID, err)
	}
	var meta map[string]string
	if err := json.Unmarshal(resp.Metadata, &meta); err != nil {
		return nil, fmt.Errorf("decode metadata of %s: %w", resp.ID, err)
	}
	if meta == nil {
		meta = map[string]string{}
	}
	items := make([]webhookverify.AnsweredQuestion, 0, len(answers))
	add := func(id, title string, a survey.Answer) error {
		v, err := webhookverify.NewAnswerValue(a)
		if err != nil {
			return err
		}
		items = append(items, webhookverify.AnsweredQuestion{Question: webhookverify.QuestionRef{ID: id, Title: title}, Answer: v})
		return nil
	}
	known := make(map[string]bool, len(sv.Questions))
	for _, q := range sv.Questions { // in position order
		known[q.ID] = true
		if a, ok := answers[q.ID]; ok {
			if err := add(q.ID, q.Title, a); err != nil {
				return nil, err
			}
		}
	}
	var orphans []string
	for id := range answers {
		if !known[id] {
			orphans = append(orphans, id)
		}
	}
	sort.Strings(orphans)
	for _, id := range orphans {
		if err := add(id, "", answers[id]); err != nil {
			return nil, err
		}
	}
	e := webhookverify.Event{
		Event: webhookverify.EventResponseCreated, Timestamp: at,
		Data: webhookverify.EventData{Response: webhookverify.Response{
			ID: resp.ID, Respondent: resp.Respondent, Data: items, Metadata: meta, Finished: resp.Finished, Language: resp.Language,
			Survey: webhookverify.Survey{ID: sv.ID, Title: sv.Title, Description: sv.Description,
				Team: webhookverify.Team{ID: team.ID, Name: team.Name}},
		}},
	}
	return json.Marshal(e)
}
