package xlsx_test

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/svc-feedback/svc/xlsx"
)

// BenchmarkSheet writes exports of 10,000, 100,000 and 1,000,000 responses of twelve columns
// (times, scores, choices, a sentence of text and metadata) and reports the most heap the export
// held while its rows streamed (peak-before-close-MB, sampled every 1,000 rows) and at any point
// (peak-heap-MB, Close included) beside the file's size. The rows go to a temporary file, so the
// first stays flat as the rows grow; Close builds the compressed file in memory (excelize's
// WriteTo), so the second grows with the file.
//
//	go test ./xlsx -run '^$' -bench Sheet -benchtime 1x -timeout 20m
func BenchmarkSheet(b *testing.B) {
	for _, rows := range []int{10_000, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(rows), func(b *testing.B) {
			for range b.N {
				peak, size := writeSheet(b, rows)
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				b.ReportMetric(float64(size)/(1<<20), "file-MB")
			}
		})
	}
}

func writeSheet(b *testing.B, rows int) (peak uint64, size int64) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapInuse > base.HeapInuse && m.HeapInuse-base.HeapInuse > peak {
			peak = m.HeapInuse - base.HeapInuse
		}
	}
	out := &countingWriter{}
	head := []string{"Response", "Respondent", "Created", "Finished", "How likely are you to recommend us?", "Stars",
		"Favourite", "Missing", "Comments", "Language", "plan", "url"}
	sh, err := xlsx.New().NewSheet(out, head)
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		row := []any{fmt.Sprintf("r%023d", i), fmt.Sprintf("person-%d", i), at.Add(time.Duration(i) * time.Minute), "yes",
			json.Number(strconv.Itoa(i % 11)), json.Number(strconv.Itoa(1 + i%5)), "Dashboards", "Exports; Alerts",
			"The new dashboard is much faster, but I still miss the export to our own tool.", "en", "pro",
			"https://app.example.com/settings/" + strconv.Itoa(i%50)}
		if err := sh.WriteRow(row); err != nil {
			b.Fatal(err)
		}
		if i%1000 == 0 {
			sample()
		}
	}
	sample()
	b.ReportMetric(float64(peak)/(1<<20), "peak-before-close-MB")
	if err := sh.Close(); err != nil {
		b.Fatal(err)
	}
	sample()
	return peak, out.n
}

// countingWriter counts the file's bytes and keeps none of them, as a response streamed to a
// client would.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
