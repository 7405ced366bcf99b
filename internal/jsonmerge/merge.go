// Package jsonmerge merges two versions of a JSON document made from the same one (a three-way
// merge): what one side changed is kept where the other left it as it was, member by member of
// objects and item by item of arrays whose items have an identity (a question by its id, an
// option by its value); the same place changed on both sides to different values is a conflict.
//
// Documents are values as encoding/json decodes them into an any (preferably with UseNumber):
// map[string]any, []any, string, json.Number or float64, bool and nil.
package jsonmerge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Step is one step of a Path: an object's member, or an array's item by its identity.
type Step struct {
	Key  string // the member's name, or the item's identity when Item is set
	Item bool
}

// Path is where a value stands in a document.
type Path []Step

// String writes a path as members joined by dots, items by their identity in brackets:
// questions[nps].properties.options[Pro].description. The root is "".
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.Item:
			b.WriteString("[" + s.Key + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Key)
		}
	}
	return b.String()
}

// Absent stands, in a Conflict, for a value a side does not have (a member or an item removed,
// or never added).
type Absent struct{}

// Conflict is a place both sides changed, each its own way. The merge keeps Mine there.
type Conflict struct {
	Path               Path
	Base, Theirs, Mine any // Absent{} where that side has none
	// Order says the conflict is over the order of the array's items, which both sides
	// changed differently (the values are then the whole arrays).
	Order bool
}

// Identity returns the identity of an item of the array at path, and whether it has one. Items
// of an array merge one by one only when every item of all three versions has an identity and
// no two items of one version share one; otherwise the array is one value.
type Identity func(array Path, item any) (string, bool)

// DefaultIdentity identifies an object by its string member "id", and a string by itself.
func DefaultIdentity(_ Path, item any) (string, bool) {
	switch v := item.(type) {
	case map[string]any:
		id, ok := v["id"].(string)
		return id, ok
	case string:
		return v, true
	}
	return "", false
}

// Options tune a merge.
type Options struct {
	// Identity identifies arrays' items; nil means DefaultIdentity.
	Identity Identity
}

// Merge merges theirs and mine, each made from base: where only one side changed a value, the
// result has that side's; where both changed it alike, that value; where both changed it each
// their own way, mine, and a Conflict says so. Objects merge member by member, arrays of
// identified items item by item (their order: the side's that reordered them, else mine's, with
// the other side's new items after the item they follow there). A member or item removed on one
// side and changed on the other is a conflict. base may be nil for a document both sides made
// anew. The result shares values with the arguments: copy it before changing it.
func Merge(base, theirs, mine any, o Options) (any, []Conflict) {
	m := merger{id: o.Identity}
	if m.id == nil {
		m.id = DefaultIdentity
	}
	v, _ := m.value(nil, base, true, theirs, true, mine, true)
	return v, m.conflicts
}

// MergeJSON is Merge over encoded documents; the result is encoded as encoding/json does, its
// objects' members in order of name.
func MergeJSON(base, theirs, mine []byte, o Options) ([]byte, []Conflict, error) {
	var docs [3]any
	for i, b := range [][]byte{base, theirs, mine} {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		if err := d.Decode(&docs[i]); err != nil {
			return nil, nil, fmt.Errorf("jsonmerge: %s: %w", [3]string{"base", "theirs", "mine"}[i], err)
		}
	}
	v, conflicts := Merge(docs[0], docs[1], docs[2], o)
	out, err := json.Marshal(v)
	return out, conflicts, err
}

type merger struct {
	id        Identity
	conflicts []Conflict
}

// Equal reports whether two decoded values are the same JSON value.
func Equal(a, b any) bool {
	if an, ok := number(a); ok {
		bn, ok := number(b)
		return ok && an == bn
	}
	return reflect.DeepEqual(a, b)
}

// number is a decoded number's canonical text, so json.Number("1.0") equals float64(1).
func number(v any) (string, bool) {
	switch n := v.(type) {
	case json.Number:
		if f, err := n.Float64(); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64), true
		}
		return string(n), true
	case float64:
		return strconv.FormatFloat(n, 'g', -1, 64), true
	}
	return "", false
}

// deepEqual is Equal, all the way down.
func deepEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !deepEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, deepEqual)
	}
	return Equal(a, b)
}

func same(a any, aok bool, b any, bok bool) bool {
	return aok == bok && (!aok || deepEqual(a, b))
}

func absentOr(v any, ok bool) any {
	if !ok {
		return Absent{}
	}
	return v
}

// value merges one place of the documents; ok reports whether the result has a value there.
func (m *merger) value(p Path, b any, bok bool, t any, tok bool, mi any, mok bool) (any, bool) {
	// Objects, and arrays of identified items, on all three sides merge part by part at once:
	// comparing them whole first would cost as much again at every level of a deep document.
	if bok && tok && mok {
		bo, ok1 := b.(map[string]any)
		to, ok2 := t.(map[string]any)
		mo, ok3 := mi.(map[string]any)
		if ok1 && ok2 && ok3 {
			return m.object(p, bo, to, mo), true
		}
		ba, ok1 := b.([]any)
		ta, ok2 := t.([]any)
		ma, ok3 := mi.([]any)
		if ok1 && ok2 && ok3 {
			if out, ok := m.array(p, ba, ta, ma); ok {
				return out, true
			}
		}
	}
	switch {
	case same(b, bok, t, tok):
		return mi, mok
	case same(b, bok, mi, mok):
		return t, tok
	case same(t, tok, mi, mok):
		return mi, mok
	}
	if tok && mok {
		bb := b
		if !bok || b == nil { // made on both sides: merged as if from an empty one
			switch t.(type) {
			case map[string]any:
				bb = map[string]any{}
			case []any:
				bb = []any{}
			}
		}
		bo, ok1 := bb.(map[string]any)
		to, ok2 := t.(map[string]any)
		mo, ok3 := mi.(map[string]any)
		if ok1 && ok2 && ok3 {
			return m.object(p, bo, to, mo), true
		}
		ba, ok1 := bb.([]any)
		ta, ok2 := t.([]any)
		ma, ok3 := mi.([]any)
		if ok1 && ok2 && ok3 {
			if out, ok := m.array(p, ba, ta, ma); ok {
				return out, true
			}
		}
	}
	m.conflicts = append(m.conflicts, Conflict{Path: slices.Clone(p), Base: absentOr(b, bok), Theirs: absentOr(t, tok), Mine: absentOr(mi, mok)})
	return mi, mok
}

func (m *merger) object(p Path, b, t, mi map[string]any) map[string]any {
	keys := make([]string, 0, len(b)+len(t)+len(mi))
	for _, o := range []map[string]any{b, t, mi} {
		for k := range o {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	keys = slices.Compact(keys)
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		bv, bok := b[k]
		tv, tok := t[k]
		mv, mok := mi[k]
		if v, ok := m.value(append(p, Step{Key: k}), bv, bok, tv, tok, mv, mok); ok {
			out[k] = v
		}
	}
	return out
}

// identities are an array's items' identities, in order, and the items by identity; ok is
// false when an item has none or two share one.
func (m *merger) identities(p Path, a []any) ([]string, map[string]any, bool) {
	ids := make([]string, len(a))
	by := make(map[string]any, len(a))
	for i, item := range a {
		id, ok := m.id(p, item)
		if !ok {
			return nil, nil, false
		}
		if _, dup := by[id]; dup {
			return nil, nil, false
		}
		ids[i], by[id] = id, item
	}
	return ids, by, true
}

func (m *merger) array(p Path, b, t, mi []any) ([]any, bool) {
	bids, bby, ok1 := m.identities(p, b)
	tids, tby, ok2 := m.identities(p, t)
	mids, mby, ok3 := m.identities(p, mi)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	order := m.order(p, b, t, mi, bids, tids, mids)
	out := make([]any, 0, len(order))
	for _, id := range order {
		bv, bok := bby[id]
		tv, tok := tby[id]
		mv, mok := mby[id]
		if v, ok := m.value(append(p, Step{Key: id, Item: true}), bv, bok, tv, tok, mv, mok); ok {
			out = append(out, v)
		}
	}
	return out, true
}

// order is every identity of the three versions in the merged order: that of the side that
// reordered the items it shares with base (mine when both did alike, or differently, which is
// a conflict), with the other side's identities it lacks each after the one it follows there.
func (m *merger) order(p Path, b, t, mi []any, bids, tids, mids []string) []string {
	theirsMoved, mineMoved := !sameOrder(bids, tids), !sameOrder(bids, mids)
	skeleton, other := mids, tids
	switch {
	case theirsMoved && !mineMoved:
		skeleton, other = tids, mids
	case theirsMoved && mineMoved && !sameOrder(tids, mids):
		m.conflicts = append(m.conflicts, Conflict{Path: slices.Clone(p), Base: b, Theirs: t, Mine: mi, Order: true})
	}
	out := slices.Clone(skeleton)
	in := make(map[string]bool, len(out)+len(other)+len(bids))
	for _, id := range out {
		in[id] = true
	}
	for i, id := range other {
		if in[id] {
			continue
		}
		at := 0
		for j := i - 1; j >= 0; j-- {
			if in[other[j]] {
				at = slices.Index(out, other[j]) + 1
				break
			}
		}
		out = slices.Insert(out, at, id)
		in[id] = true
	}
	for _, id := range bids { // removed on both sides: still merged (to nothing)
		if !in[id] {
			out = append(out, id)
		}
	}
	return out
}

// sameOrder reports whether the identities a and b share come in the same order in both.
func sameOrder(a, b []string) bool {
	inA := make(map[string]bool, len(a))
	for _, id := range a {
		inA[id] = true
	}
	inB := make(map[string]bool, len(b))
	for _, id := range b {
		inB[id] = true
	}
	i, j := 0, 0
	for {
		for i < len(a) && !inB[a[i]] {
			i++
		}
		for j < len(b) && !inA[b[j]] {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i++
		j++
	}
}
