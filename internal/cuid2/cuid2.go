// Package cuid2 makes and checks cuid2 identifiers: a lowercase letter followed by lowercase
// letters and digits, 24 characters by default.
//
// The generator follows the cuid2 design (a SHA3-512 hash of the time, fresh entropy, a counter
// and a host fingerprint, written in base 36) on the standard library alone, because no cuid2
// module is available to the project.
package cuid2

import (
	"crypto/rand"
	"crypto/sha3"
	"encoding/binary"
	"math/big"
	"os"
	"sync/atomic"
	"time"
)

// DefaultLength is the length of identifiers made by New.
const DefaultLength = 24

// MinLength and MaxLength bound the identifiers IsValid accepts.
const (
	MinLength = 2
	MaxLength = 32
)

// Generator makes cuid2 identifiers. The zero value is not usable; call NewGenerator.
// A Generator is safe for concurrent use.
type Generator struct {
	counter     atomic.Uint64
	fingerprint []byte
}

// NewGenerator returns a Generator whose counter starts at a random value and whose fingerprint
// mixes the host name, the process id and random bytes.
func NewGenerator() *Generator {
	g := &Generator{}
	var seed [8]byte
	_, _ = rand.Read(seed[:]) // crypto/rand.Read never fails on supported platforms
	g.counter.Store(binary.LittleEndian.Uint64(seed[:]) >> 12)
	host, _ := os.Hostname()
	fp := sha3.Sum512([]byte(host + string(rune(os.Getpid())) + rand.Text()))
	g.fingerprint = fp[:]
	return g
}

// New returns a fresh identifier of DefaultLength characters.
func (g *Generator) New() string {
	var buf [8 + 8 + 32]byte
	binary.BigEndian.PutUint64(buf[0:8], uint64(time.Now().UnixNano()))
	binary.BigEndian.PutUint64(buf[8:16], g.counter.Add(1))
	_, _ = rand.Read(buf[16:])
	h := sha3.New512()
	h.Write(buf[:])
	h.Write(g.fingerprint)
	body := new(big.Int).SetBytes(h.Sum(nil)).Text(36)

	var first [1]byte
	_, _ = rand.Read(first[:])
	// 256 is not a multiple of 26; the bias of about 0.4% on one letter does not matter for ids.
	id := string(rune('a'+first[0]%26)) + body[1:DefaultLength]
	return id
}

// IsValid reports whether s has the shape of a cuid2: MinLength to MaxLength characters, a
// lowercase ASCII letter first and lowercase ASCII letters or digits after it.
func IsValid(s string) bool {
	if len(s) < MinLength || len(s) > MaxLength {
		return false
	}
	if s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// IsUUID reports whether s is a UUID in the canonical 8-4-4-4-12 hexadecimal form, in any case.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}
