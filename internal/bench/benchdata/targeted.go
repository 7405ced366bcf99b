package benchdata

import (
	"fmt"

	"github.com/svc-feedback/svc/survey"
)

// TargetedDisplay is the display rules of the benchmarks' i-th targeted survey, which
// next-survey's benchmarks give a team by the hundred: shown on the pages under /app/page-i/, to
// people on a paid plan, until they respond, at one of three priorities.
func TargetedDisplay(i int) *survey.Display {
	return &survey.Display{
		URLs:       []survey.URLRule{{Match: survey.MatchPrefix, Value: fmt.Sprintf("/app/page-%d/", i)}},
		Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpNotEqual, Value: "free"}},
		Priority:   float64(i % 3),
	}
}

// TargetedAsk is the body of a next-survey ask that the 42nd targeted survey matches, by the
// person visitor{n}, as a format of n.
const TargetedAsk = `{"respondent":"visitor%d","url":"/app/page-42/settings","attributes":{"plan":"pro"}}`
