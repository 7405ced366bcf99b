package console

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
	"time"
)

// The trend's charts, drawn on the server as SVG inside the page: no script, and no inline
// style (every look is a class of results.css, so the page's policy holds and the charts follow
// its light and dark schemes). The responses per bucket are columns, the finished ones darker
// within; a rating question's score per bucket is a line, broken where no one answered. Each
// chart is an image named by its page's heading (aria-labelledby) and described by its <desc>:
// its first, last, lowest and highest figures. The page puts the same figures in a table below.

// The charts' geometry, in CSS pixels: the SVG is drawn at its size, never scaled, so that its
// text stays readable; a narrow screen scrolls it inside its own box (trend.html).
const (
	chartLeft   = 52  // the y axis's tick labels
	chartRight  = 18  // half the last x label
	chartTop    = 30  // the y axis's title and the legend
	chartPlot   = 150 // the plot's height
	chartBottom = 56  // the x axis's labels, their years and its title
	chartAim    = 700 // the plot's width when the buckets allow
	chartMin    = 240 // the plot's least width
)

// xAxis is a chart's buckets: their interval and starts (UTC), and their labels in words (as
// the table says them).
type xAxis struct {
	Interval string
	Starts   []time.Time
	Labels   []string
}

// title is the x axis's title.
func (x xAxis) title() string {
	switch x.Interval {
	case "week":
		return "Week, from Monday (UTC)"
	case "month":
		return "Month (UTC)"
	}
	return "Day (UTC)"
}

// tick is a bucket's label under the axis: its day and month, or its month; its year goes on a
// line of its own (see tickYear).
func (x xAxis) tick(i int) string {
	if x.Interval == "month" {
		return x.Starts[i].Format("Jan")
	}
	return x.Starts[i].Format("2 Jan")
}

// yAxis is a chart's scale: its title, range, ticks (from Min to Max), whether 0 is marked, and
// how its tick labels read.
type yAxis struct {
	Title    string
	Min, Max float64
	Ticks    []float64
	Zero     bool
}

// frame places a chart's buckets and values.
type frame struct {
	x             xAxis
	y             yAxis
	step, plotW   float64
	width, height float64
}

func newFrame(x xAxis, y yAxis) frame {
	n := float64(max(len(x.Starts), 1))
	step := math.Min(72, math.Max(12, chartAim/n))
	plotW := math.Max(n*step, chartMin)
	return frame{x: x, y: y, step: plotW / n, plotW: plotW,
		width: chartLeft + plotW + chartRight, height: chartTop + chartPlot + chartBottom}
}

// cx is the middle of bucket i.
func (f frame) cx(i int) float64 { return chartLeft + (float64(i)+0.5)*f.step }

// cy is where value v is.
func (f frame) cy(v float64) float64 {
	return chartTop + chartPlot*(f.y.Max-v)/(f.y.Max-f.y.Min)
}

// base is the plot's bottom.
func (f frame) base() float64 { return chartTop + chartPlot }

// num writes a coordinate to a tenth of a pixel.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// esc is text in SVG, as in HTML.
func esc(s string) string { return template.HTMLEscapeString(s) }

// open starts a chart: the SVG, named by the heading id names and described by its <desc>,
// then the frame: the grid at the ticks, the axes, their labels and titles.
func (f frame) open(b *strings.Builder, id, title, desc string) {
	fmt.Fprintf(b, `<svg role="img" class="trend-svg" aria-labelledby="%s" aria-describedby="%s-desc" width="%s" height="%s" viewBox="0 0 %s %s">`,
		esc(id), esc(id), num(f.width), num(f.height), num(f.width), num(f.height))
	fmt.Fprintf(b, "\n<title>%s</title>\n<desc id=\"%s-desc\">%s</desc>\n", esc(title), esc(id), esc(desc))
	right := chartLeft + f.plotW
	for _, t := range f.y.Ticks {
		class := "grid"
		if f.y.Zero && t == 0 {
			class = "zero"
		}
		y := num(f.cy(t))
		fmt.Fprintf(b, `<line class="%s" x1="%d" x2="%s" y1="%s" y2="%s"></line><text x="%d" y="%s" text-anchor="end">%s</text>`+"\n",
			class, chartLeft, num(right), y, y, chartLeft-6, num(f.cy(t)+4), esc(tickText(t)))
	}
	base := num(f.base())
	fmt.Fprintf(b, `<line class="axis" x1="%d" x2="%d" y1="%d" y2="%s"></line><line class="axis" x1="%d" x2="%s" y1="%s" y2="%s"></line>`+"\n",
		chartLeft, chartLeft, chartTop, base, chartLeft, num(right), base, base)
	// A label every few buckets, as many as fit; a year under the first label and wherever
	// the year changes.
	every := int(math.Ceil(map[bool]float64{true: 40, false: 52}[f.x.Interval == "month"] / f.step))
	lastYear := -1
	for i := 0; i < len(f.x.Starts); i += every {
		x := num(f.cx(i))
		fmt.Fprintf(b, `<line class="axis" x1="%s" x2="%s" y1="%s" y2="%s"></line><text x="%s" y="%s" text-anchor="middle">%s</text>`,
			x, x, base, num(f.base()+4), x, num(f.base()+17), esc(f.x.tick(i)))
		if y := f.x.Starts[i].Year(); y != lastYear {
			fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">%d</text>`, x, num(f.base()+31), y)
			lastYear = y
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, `<text class="axis-title" x="4" y="16">%s</text>`+"\n", esc(f.y.Title))
	fmt.Fprintf(b, `<text class="axis-title" x="%d" y="%s">%s</text>`+"\n", chartLeft, num(f.height-6), esc(f.x.title()))
}

// tickText is a tick's label: a whole number, or to a tenth.
func tickText(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// columnChart draws the responses of each bucket as a column, its finished ones darker at its
// foot: one column per bucket, a bucket of none a column of no height.
func columnChart(id, title, desc string, x xAxis, responses, finished []int64) template.HTML {
	var most int64
	for _, n := range responses {
		most = max(most, n)
	}
	f := newFrame(x, countAxis("Responses", most))
	var b strings.Builder
	f.open(&b, id, title, desc)
	// The legend, beside the y axis's title.
	b.WriteString(`<rect class="swatch col-finished" x="120" y="7" width="10" height="10"></rect><text x="134" y="16">Finished</text>` +
		`<rect class="swatch col" x="210" y="7" width="10" height="10"></rect><text x="224" y="16">Not finished</text>` + "\n")
	w := math.Min(0.7*f.step, 40)
	for i, n := range responses {
		var done int64
		if i < len(finished) {
			done = min(finished[i], n)
		}
		left := num(f.cx(i) - w/2)
		top, doneTop := f.cy(float64(n)), f.cy(float64(done))
		fmt.Fprintf(&b, `<g><title>%s: %d %s, %d finished</title><rect class="col" x="%s" y="%s" width="%s" height="%s"></rect><rect class="col-finished" x="%s" y="%s" width="%s" height="%s"></rect></g>`+"\n",
			esc(x.Labels[i]), n, plural(n, "response", "responses"), done,
			left, num(top), num(w), num(f.base()-top), left, num(doneTop), num(w), num(f.base()-doneTop))
	}
	b.WriteString("</svg>")
	return template.HTML(b.String())
}

// lineChart draws a score per bucket as a line with a dot at each bucket's score; a bucket
// without one (nil) is a gap in the line, not a zero.
func lineChart(id, title, desc string, x xAxis, y yAxis, values []*float64, format func(float64) string) template.HTML {
	f := newFrame(x, y)
	var b strings.Builder
	f.open(&b, id, title, desc)
	var d strings.Builder
	pen := false
	for i, v := range values {
		if v == nil {
			pen = false
			continue
		}
		if pen {
			d.WriteString(" L")
		} else {
			if d.Len() > 0 {
				d.WriteString(" ")
			}
			d.WriteString("M")
		}
		fmt.Fprintf(&d, "%s %s", num(f.cx(i)), num(f.cy(*v)))
		pen = true
	}
	if d.Len() == 0 {
		fmt.Fprintf(&b, `<text class="none" x="%s" y="%s" text-anchor="middle">No answers in this range</text>`+"\n",
			num(chartLeft+f.plotW/2), num(chartTop+chartPlot/2))
	} else {
		fmt.Fprintf(&b, `<path class="line" d="%s"></path>`+"\n", d.String())
	}
	for i, v := range values {
		if v != nil {
			fmt.Fprintf(&b, `<circle class="dot" cx="%s" cy="%s" r="3"><title>%s: %s</title></circle>`+"\n",
				num(f.cx(i)), num(f.cy(*v)), esc(x.Labels[i]), esc(format(*v)))
		}
	}
	b.WriteString("</svg>")
	return template.HTML(b.String())
}

// countAxis is a scale of counts from 0 to a round number at or above most, in about four
// steps of 1, 2 or 5 times a power of ten.
func countAxis(title string, most int64) yAxis {
	raw := float64(most) / 4
	step := 1.0
	for p := 1.0; step < raw; p *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if step = m * p; step >= raw {
				break
			}
		}
	}
	top := math.Max(step*math.Ceil(float64(most)/step), 1)
	y := yAxis{Title: title, Min: 0, Max: top}
	for t := 0.0; t <= top+step/2; t += step {
		y.Ticks = append(y.Ticks, t)
	}
	return y
}

// scoreAxis is a rating's scale, low to high, with a tick at each step that divides it into
// at most five.
func scoreAxis(title string, low, high int) yAxis {
	span := high - low
	step := 1
	for span/step > 5 || span%step != 0 {
		step++
	}
	y := yAxis{Title: title, Min: float64(low), Max: float64(high)}
	for t := low; t <= high; t += step {
		y.Ticks = append(y.Ticks, float64(t))
	}
	return y
}

// describe says what a chart shows, for its <desc>: its first and last figures, its lowest and
// highest (the first bucket of each), and how many buckets have none. what is the figure's
// name ("NPS by day"), lead what comes before the figures ("12 in all"), if anything.
func describe(what, lead string, x xAxis, values []*float64, format func(float64) string) string {
	n := len(values)
	if n == 0 {
		return what + ": nothing yet."
	}
	var s strings.Builder
	fmt.Fprintf(&s, "%s, %s to %s: ", what, x.Labels[0], x.Labels[n-1])
	if lead != "" {
		s.WriteString(lead + "; ")
	}
	first, last, low, high, none := -1, -1, -1, -1, 0
	for i, v := range values {
		if v == nil {
			none++
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
		if low < 0 || *v < *values[low] {
			low = i
		}
		if high < 0 || *v > *values[high] {
			high = i
		}
	}
	if first < 0 {
		s.WriteString("no answers in this range.")
		return s.String()
	}
	at := func(i int) string { return format(*values[i]) + " (" + x.Labels[i] + ")" }
	fmt.Fprintf(&s, "first %s, last %s, lowest %s, highest %s.", at(first), at(last), at(low), at(high))
	if none > 0 {
		fmt.Fprintf(&s, " No answers in %d of the %d %s.", none, n, plural(int64(n), x.Interval, x.Interval+"s"))
	}
	return s.String()
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
