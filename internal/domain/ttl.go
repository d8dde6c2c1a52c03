package domain

import (
	"encoding/json"
	"fmt"
	"math/big"
	"time"
)

// TTLKind is what an item's TTL attribute means to DynamoDB's Time to
// Live: it deletes an item (typically within two days) only once a Number
// of epoch seconds in that attribute is past, and no more than five years
// past: an older time is ignored. A time in milliseconds or microseconds
// is read as seconds far in the future, a String or any other type is
// ignored: such items never expire.
type TTLKind string

const (
	TTLLive         TTLKind = "live"         // epoch seconds, still ahead
	TTLExpired      TTLKind = "expired"      // epoch seconds, past: deleted soon, still read until then
	TTLTooOld       TTLKind = "tooOld"       // epoch seconds more than five years past, which TTL ignores: never expires
	TTLMilliseconds TTLKind = "milliseconds" // a Number that looks like epoch milliseconds or microseconds: never expires
	TTLWrongType    TTLKind = "wrongType"    // not a Number (a String, …): never expires
	TTLMissing      TTLKind = "missing"      // no TTL attribute: never expires
)

// Epoch numbers at or above these are taken for milliseconds, and for
// microseconds: as seconds they would name the year 5138 and beyond.
const (
	ttlMillisFrom = 1e11
	ttlMicrosFrom = 1e14
)

// TTLValue is one item's TTL attribute, read as DynamoDB's TTL reads it.
type TTLValue struct {
	Kind TTLKind
	// At is when the item expires (live, expired), or the time a value in
	// milliseconds or microseconds was probably meant to name.
	At   time.Time
	Unit string // a Number's unit: seconds, milliseconds or microseconds
	Type string // a value of the wrong type's DynamoDB type: S, BOOL, …
}

// ReadTTL reads a plain value (as dynamo.Plain makes it; present false:
// the item has no such attribute) against now.
func ReadTTL(v any, present bool, now time.Time) TTLValue {
	if !present {
		return TTLValue{Kind: TTLMissing}
	}
	n, ok := v.(json.Number)
	if !ok {
		return TTLValue{Kind: TTLWrongType, Type: PlainType(v)}
	}
	f, _, err := big.ParseFloat(string(n), 10, 128, big.ToNegativeInf)
	if err != nil {
		return TTLValue{Kind: TTLWrongType, Type: "N"}
	}
	secs, _ := f.Float64()
	switch {
	case secs >= ttlMicrosFrom:
		return TTLValue{Kind: TTLMilliseconds, Unit: "microseconds", At: unixTime(secs / 1e6)}
	case secs >= ttlMillisFrom:
		return TTLValue{Kind: TTLMilliseconds, Unit: "milliseconds", At: unixTime(secs / 1e3)}
	}
	at := unixTime(secs)
	switch {
	case at.After(now):
		return TTLValue{Kind: TTLLive, Unit: "seconds", At: at}
	case at.Before(now.AddDate(-ttlIgnoredAfterYears, 0, 0)):
		return TTLValue{Kind: TTLTooOld, Unit: "seconds", At: at}
	}
	return TTLValue{Kind: TTLExpired, Unit: "seconds", At: at}
}

// ttlIgnoredAfterYears: DynamoDB's TTL expires an item only when its time
// is no more than five years in the past ("Using DynamoDB Time to Live",
// Formatting an item's TTL attribute); an older one it never deletes.
const ttlIgnoredAfterYears = 5

func unixTime(secs float64) time.Time {
	whole := int64(secs)
	return time.Unix(whole, int64((secs-float64(whole))*1e9)).UTC()
}

// Words say what the TTL means for the item, for people: "expires in 3h
// 20m", "expired 2d 4h ago, not yet deleted", "never: milliseconds",
// "never: a String", "never: no TTL attribute".
func (v TTLValue) Words(now time.Time) string {
	switch v.Kind {
	case TTLLive:
		return "expires in " + Span(v.At.Sub(now))
	case TTLExpired:
		return "expired " + Span(now.Sub(v.At)) + " ago, not yet deleted"
	case TTLTooOld:
		return "never: " + Span(now.Sub(v.At)) + " in the past (TTL ignores a time more than five years back)"
	case TTLMilliseconds:
		return "never: " + v.Unit + " (TTL reads seconds; meant " + v.At.Format("2006-01-02 15:04:05") + " UTC?)"
	case TTLWrongType:
		return "never: " + typeWords(v.Type) + " (TTL reads only a Number of epoch seconds)"
	}
	return "never: no TTL attribute"
}

// Span is a duration in at most two units, for people: 45s, 3m 20s,
// 3h 20m, 2d 4h, 1y 35d.
func Span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return twoUnits(s/60, "m", s%60, "s")
	case s < 86400:
		return twoUnits(s/3600, "h", s%3600/60, "m")
	case s < 100*86400:
		return twoUnits(s/86400, "d", s%86400/3600, "h")
	case s < 365*86400:
		return fmt.Sprintf("%dd", s/86400)
	}
	return twoUnits(s/(365*86400), "y", s%(365*86400)/86400, "d")
}

func twoUnits(a int64, au string, b int64, bu string) string {
	if b == 0 {
		return fmt.Sprintf("%d%s", a, au)
	}
	return fmt.Sprintf("%d%s %d%s", a, au, b, bu)
}

func typeWords(t string) string {
	switch t {
	case "S":
		return "a String"
	case "B":
		return "a Binary"
	case "BOOL":
		return "a Boolean"
	case "NULL":
		return "a NULL"
	case "M":
		return "a Map"
	case "L":
		return "a List"
	case "SS", "NS", "BS":
		return "a set (" + t + ")"
	}
	return "a " + t
}

// PlainType is the DynamoDB type of a plain value (as dynamo.Plain makes
// it): S, N, B, BOOL, NULL, M, L, SS, NS or BS.
func PlainType(v any) string {
	switch v.(type) {
	case string:
		return "S"
	case json.Number:
		return "N"
	case []byte:
		return "B"
	case bool:
		return "BOOL"
	case nil:
		return "NULL"
	case map[string]any:
		return "M"
	case []any:
		return "L"
	case []string:
		return "SS"
	case []json.Number:
		return "NS"
	case [][]byte:
		return "BS"
	}
	return "?"
}

// The item size limits: DynamoDB refuses an item above MaxItemBytes;
// ItemSizeWarnBytes is where the item view warns that one is near.
const (
	MaxItemBytes      = 400 * 1024
	ItemSizeWarnBytes = 300 * 1024
)

// ItemSizeWords say an item's size as DynamoDB bills it, beside the 400 KB
// limit, and warn (warn true) above 300 KB: "1.2 KB", "312.0 KB of the 400
// KB limit: 78%".
func ItemSizeWords(bytes int) (words string, warn bool) {
	kb := float64(bytes) / 1024
	size := fmt.Sprintf("%d B", bytes)
	if bytes >= 1024 {
		size = fmt.Sprintf("%.1f KB", kb)
	}
	if bytes <= ItemSizeWarnBytes {
		return size, false
	}
	return fmt.Sprintf("%s of the 400 KB limit: %.0f%%", size, 100*float64(bytes)/MaxItemBytes), true
}
