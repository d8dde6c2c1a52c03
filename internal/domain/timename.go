package domain

import "strings"

// spokenLayouts name the text forms as people say them, not as Go
// layouts.
var spokenLayouts = map[string]string{
	"2006-01-02T15:04:05Z07:00": "ISO 8601 with zone",
	"2006-01-02T15:04:05":       "ISO 8601 without zone",
	"2006-01-02 15:04:05Z07:00": "date and time with zone",
	"2006-01-02 15:04:05":       "date and time",
	"2006-01-02:15:04:05":       "date:time",
	"2006-01-02T15:04Z07:00":    "ISO 8601 to the minute with zone",
	"2006-01-02T15:04":          "ISO 8601 to the minute",
	"2006-01-02":                "date",
	"2006-01":                   "year and month",
}

// Spoken names the encoding as people say it: "epoch milliseconds",
// "ISO 8601 with zone after a prefix ending #"; a configured layout of
// its own is shown as written. A form a prefix is said as Name says it,
// every prefix with its form: said as the first form alone, onetable's
// Activity#<ISO>#… beside contact#<ULID> read as ISO keys only.
func (e TimeEncoding) Spoken() string {
	if e.Forms != nil {
		return e.Name()
	}
	if e.IsID() {
		ids := map[TimeKind]string{TimeULID: "ULIDs", TimeUUIDv7: "UUIDv7s", TimeKSUID: "KSUIDs", TimeSnowflake: "Snowflake ids", TimeObjectID: "ObjectIds"}[e.Kind]
		if e.Kind == TimeSnowflake && e.Epoch == discordEpoch {
			ids = "Discord Snowflake ids"
		}
		return e.placeSpoken(ids + " (time-ordered ids)")
	}
	if e.Kind != TimeText {
		return e.Name()
	}
	if e.Number {
		return "dates written as numbers (" + e.Name() + ")"
	}
	layout, frac := e.Layout, ""
	for _, f := range []struct{ digits, name string }{{fractionVaries, "fractions of a second of any length"}, {".000000", "microseconds"}, {".000", "milliseconds"}} {
		if i := strings.Index(layout, f.digits); i >= 0 {
			layout, frac = layout[:i]+layout[i+len(f.digits):], " and "+f.name
			break
		}
	}
	s, ok := spokenLayouts[layout]
	if !ok {
		s, frac = "the layout "+e.Layout, ""
	}
	if frac != "" {
		s = strings.Replace(s, " with zone", frac+" with zone", 1)
		if !strings.Contains(s, frac) {
			s += frac
		}
	}
	return e.placeSpoken(s)
}

// placeSpoken says where the time stands in the key.
func (e TimeEncoding) placeSpoken(s string) string {
	switch {
	case e.Place == TimeAfter && e.Lead != "":
		s += " after " + e.Lead
	case e.Place == TimeAfter:
		s += " after a prefix ending " + e.Sep
	case e.Place == TimeLeading:
		s += " before " + e.Sep + "…"
	}
	if e.Tail != "" {
		s += ", then " + e.Tail + "…"
	}
	return s
}
