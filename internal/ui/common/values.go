package common

import (
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// Cell renders an attribute value in one line for a grid cell: scalars as
// they are, containers summarised, everything sanitized.
func Cell(av types.AttributeValue) string {
	switch v := av.(type) {
	case nil:
		return ""
	case *types.AttributeValueMemberS:
		return Sanitize(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return "b64:" + base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprint(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberM:
		return fmt.Sprintf("{…%d}", len(v.Value))
	case *types.AttributeValueMemberL:
		return fmt.Sprintf("[…%d]", len(v.Value))
	case *types.AttributeValueMemberSS:
		return "⟨" + Sanitize(strings.Join(v.Value, ", ")) + "⟩"
	case *types.AttributeValueMemberNS:
		return "⟨" + strings.Join(v.Value, ", ") + "⟩"
	case *types.AttributeValueMemberBS:
		return "⟨" + Plural(len(v.Value), "binary", "binaries") + "⟩"
	}
	return "?"
}

// HumanBytes renders a size for people, in binary units named as such
// (KiB, not KB, for 1,024 bytes).
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Plural counts a noun for people: "1 item", "1,024 items".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// Thousands renders an integer with thousands separators.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Latency is a request's duration to three figures at most: 1.9864s is
// 1.99s, 12.345ms is 12ms; below 10 ms to a tenth of a millisecond, as
// the status bar always said them (its width stays put).
func Latency(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= 10*time.Millisecond:
		return d.Round(time.Millisecond).String()
	case d > 0 && d < 50*time.Microsecond:
		return "<50µs" // rounded it would read "0s": no request takes no time
	}
	return d.Round(100 * time.Microsecond).String()
}

// KeyCell shows a key value: strings and numbers as they are, binaries base64.
func KeyCell(v domain.KeyValue) string {
	if v.Type == domain.TypeB {
		return v.Literal()
	}
	return Sanitize(v.Text)
}
