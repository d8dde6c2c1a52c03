package domain

import "testing"

func TestTimeEncodingSpoken(t *testing.T) {
	cases := []struct {
		enc  TimeEncoding
		want string
	}{
		{TimeEncoding{Kind: EpochSeconds}, "epoch seconds"},
		{TimeEncoding{Kind: EpochMillis}, "epoch milliseconds"},
		{TimeEncoding{Kind: TimeText, Layout: "2006-01-02T15:04:05Z07:00"}, "ISO 8601 with zone"},
		{TimeEncoding{Kind: TimeText, Layout: "2006-01-02T15:04:05.000Z07:00"}, "ISO 8601 and milliseconds with zone"},
		{TimeEncoding{Kind: TimeText, Layout: "2006-01-02T15:04:05.000000"}, "ISO 8601 without zone and microseconds"},
		{TimeEncoding{Kind: TimeText, Layout: "2006-01-02:15:04:05", Place: TimeAfter, Sep: "#"}, "date:time after a prefix ending #"},
		{TimeEncoding{Kind: TimeText, Layout: "2006-01-02", Place: TimeLeading, Sep: "#"}, "date before #…"},
		{TimeEncoding{Kind: TimeText, Layout: "02/01/2006"}, "the layout 02/01/2006"},
		// onetable's Activity#<ISO>#<uid> beside contact#<ULID>: both forms.
		{TimeEncoding{Kind: TimeText, Layout: "2006-01-02T15:04:05.000Z07:00", Place: TimeAfter, Sep: "#", Forms: &PrefixForms{List: []PrefixForm{
			{Prefix: "Activity#", Enc: TimeEncoding{Kind: TimeText, Layout: "2006-01-02T15:04:05.000Z07:00", Place: TimeAfter, Sep: "#", Tail: "#"}},
			{Prefix: "contact#", Enc: TimeEncoding{Kind: TimeULID, Place: TimeAfter, Sep: "#"}}}}},
			"a form a prefix: Activity#{2006-01-02T15:04:05.000Z07:00#…}, contact#{ULID}"},
	}
	for _, c := range cases {
		if got := c.enc.Spoken(); got != c.want {
			t.Errorf("%q: %q, want %q", c.enc.Layout, got, c.want)
		}
	}
}
