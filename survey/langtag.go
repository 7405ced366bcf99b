package survey

import (
	"fmt"
	"strings"
)

// Language tags (docs/languages-and-links.md): a language of ISO 639, optionally with a script and
// a region, as BCP 47 writes them ("de", "pt-BR", "zh-Hant", "zh-Hant-TW"). svc needs no more of
// BCP 47 than that: a survey's languages are chosen by its team, and a person's are matched
// against them by the fallback of LanguageChain.

// knownLanguages are ISO 639-1's codes, and the ISO 639-2/3 codes of languages with no two-letter
// code that apps commonly ship (Filipino, Cantonese, Central Kurdish, Swiss German, Hawaiian, Low
// German, Scots, Asturian).
const knownLanguages = " aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy" +
	" da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz" +
	" ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt" +
	" lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu" +
	" rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts" +
	" tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu fil yue ckb gsw haw nds sco ast "

// rightToLeft are the known languages written right to left.
const rightToLeft = " ar dv fa he ks ku ps sd ug ur yi ckb "

// MaxLanguageTag is the longest language tag svc takes: a language, a script and a region.
const MaxLanguageTag = len("fil-Hant-419")

// CanonicalLanguage returns tag in its canonical case ("pt-br" → "pt-BR", "ZH-hant" → "zh-Hant"),
// or an error saying why svc does not take it: a malformed tag or a language it does not know.
func CanonicalLanguage(tag string) (string, error) {
	if tag == "" {
		return "", fmt.Errorf("a language tag is required, such as %q or %q", "de", "pt-BR")
	}
	if len(tag) > MaxLanguageTag {
		return "", fmt.Errorf("language tag %q is too long: svc takes a language, a script and a region at most, such as %q", truncateTag(tag), "zh-Hant-TW")
	}
	parts := strings.Split(tag, "-")
	lang := strings.ToLower(parts[0])
	if !isLetters(lang) || !strings.Contains(knownLanguages, " "+lang+" ") {
		return "", fmt.Errorf("%q is not a language svc knows: use an ISO 639 code such as %q, optionally with a script or region (%q, %q)", tag, "de", "zh-Hant", "pt-BR")
	}
	out := lang
	rest := parts[1:]
	if len(rest) > 0 && len(rest[0]) == 4 && isLetters(rest[0]) {
		out += "-" + strings.ToUpper(rest[0][:1]) + strings.ToLower(rest[0][1:])
		rest = rest[1:]
	}
	if len(rest) > 0 && (len(rest[0]) == 2 && isLetters(rest[0]) || len(rest[0]) == 3 && isDigits(rest[0])) {
		out += "-" + strings.ToUpper(rest[0])
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return "", fmt.Errorf("language tag %q is not a language, an optional four-letter script and an optional region (two letters or three digits), such as %q", tag, "pt-BR")
	}
	return out, nil
}

// RightToLeft reports whether the language of tag is written right to left.
func RightToLeft(tag string) bool {
	lang, _, _ := strings.Cut(tag, "-")
	return strings.Contains(rightToLeft, " "+strings.ToLower(lang)+" ")
}

// LanguageChain returns the tags a canonical tag falls back through, most specific first:
// "zh-Hant-TW" gives "zh-Hant-TW", "zh-Hant", "zh".
func LanguageChain(tag string) []string {
	chain := []string{tag}
	for {
		i := strings.LastIndexByte(tag, '-')
		if i < 0 {
			return chain
		}
		tag = tag[:i]
		chain = append(chain, tag)
	}
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func truncateTag(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}
