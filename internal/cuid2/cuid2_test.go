package cuid2_test

import (
	"testing"

	"github.com/svc-feedback/svc/internal/cuid2"
)

func TestNewIsValidAndUnique(t *testing.T) {
	g := cuid2.NewGenerator()
	seen := make(map[string]bool)
	for range 10000 {
		id := g.New()
		if len(id) != cuid2.DefaultLength || !cuid2.IsValid(id) {
			t.Fatalf("New() = %q, not a valid %d-character cuid2", id, cuid2.DefaultLength)
		}
		if seen[id] {
			t.Fatalf("New() repeated %q", id)
		}
		seen[id] = true
	}
}

func TestIsValid(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"ab", true},
		{"clh3am1f50000qzrmn831i7rn", true},
		{"a", false},
		{"1abc", false},
		{"Abc", false},
		{"abc-def", false},
		{"abcdefghijklmnopqrstuvwxyz0123456", false}, // 33 characters
		{"", false},
	}
	for _, tt := range tests {
		if got := cuid2.IsValid(tt.in); got != tt.want {
			t.Errorf("IsValid(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsUUID(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"123e4567-e89b-12d3-a456-426614174000", true},
		{"123E4567-E89B-12D3-A456-426614174000", true},
		{"123e4567e89b12d3a456426614174000", false},
		{"123e4567-e89b-12d3-a456-42661417400g", false},
		{"{123e4567-e89b-12d3-a456-426614174000}", false},
	}
	for _, tt := range tests {
		if got := cuid2.IsUUID(tt.in); got != tt.want {
			t.Errorf("IsUUID(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
