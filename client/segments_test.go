package client_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/client"
)

// Segments through the client: declared, shown with their fill's progress, refused with the
// server's message when one is not a segment, and cleared.
func TestSegmentsThroughClient(t *testing.T) {
	e := setup(t)
	c, _ := e.clients()
	ctx := t.Context()
	st, err := c.SetSegments(ctx, []string{"metadata.plan", "language"}, nil)
	if err != nil || !slices.Equal(st.Segments, []string{"metadata.plan", "language"}) || st.SegmentsFill.State == "none" {
		t.Fatalf("declared: %+v, %v", st, err)
	}
	_, err = c.SetSegments(ctx, []string{"plan"}, nil)
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.Contains(apiErr.Message, `"plan" is not a segment`) {
		t.Errorf("a segment that is not one: %v, want a 400 naming it", err)
	}
	if st, err = c.SetSegments(ctx, nil, &client.UpdateOptions{IfMatch: st.ETag}); err != nil || len(st.Segments) != 0 || st.SegmentsFill.State != "none" {
		t.Errorf("cleared: %+v, %v", st, err)
	}
}
