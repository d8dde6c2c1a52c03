package domain

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func plainOf(t *testing.T, js string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseMask(t *testing.T) {
	for _, tc := range []struct {
		specs []string
		attrs string
		err   string
	}{
		{nil, "", ""},
		{[]string{" ", ""}, "", ""},
		{[]string{"Email"}, "Email", ""},
		{[]string{"Owner.email", "SK", "Owner.phone"}, "Owner,SK", ""},
		{[]string{"Owner..email"}, "", "empty name"},
		{[]string{".x"}, "", "empty name"},
	} {
		m, err := ParseMask(tc.specs)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.specs, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(m.Attributes(), ",") != tc.attrs {
			t.Errorf("%q: %v %v", tc.specs, m.Attributes(), err)
		}
	}
}

// TestMaskPlain: masked values never survive, nested paths and lists are
// reached, keys keep their segments, equal values read the same and
// different values differently, and requests' values are untouched
// (masking works on copies the caller makes).
func TestMaskPlain(t *testing.T) {
	m, err := ParseMask([]string{"PK", "SK", "Email", "Owner.phone", "Contacts.phone", "Score"})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{"PK": "#", "SK": "#"}
	a := m.Plain(plainOf(t, `{"PK":"USA","SK":"NY#NEWYORK#10001","Email":"ann@example.com","Score":95,
		"Owner":{"name":"Ann","phone":"555-1234"},"Contacts":[{"phone":"555-1234"},{"phone":"555-9999"}],"City":"NEWYORK"}`), keys)
	b := m.Plain(plainOf(t, `{"PK":"USA","SK":"NY#ALBANY#12207","Email":"bob@example.com","Score":95}`), keys)
	out, _ := json.Marshal([]any{a, b})
	for _, secret := range []string{"USA", "NY#", "10001", "ALBANY", "ann@", "bob@", "555-", `"Score":95`} {
		if strings.Contains(string(out), secret) {
			t.Errorf("%q survived masking: %s", secret, out)
		}
	}
	if a["City"] != "NEWYORK" || a["Owner"].(map[string]any)["name"] != "Ann" {
		t.Errorf("unmasked attributes changed: %s", out)
	}
	if a["PK"] != b["PK"] || a["Score"] != b["Score"] {
		t.Errorf("equal values read differently: %v %v / %v %v", a["PK"], b["PK"], a["Score"], b["Score"])
	}
	if a["Email"] == b["Email"] {
		t.Errorf("different values read the same: %v", a["Email"])
	}
	as, bs := strings.Split(a["SK"].(string), "#"), strings.Split(b["SK"].(string), "#")
	if len(as) != 3 || len(bs) != 3 || as[0] != bs[0] || as[1] == bs[1] {
		t.Errorf("key segments: %v %v", as, bs)
	}
	contacts := a["Contacts"].([]any)
	if contacts[0].(map[string]any)["phone"] != a["Owner"].(map[string]any)["phone"] ||
		contacts[0].(map[string]any)["phone"] == contacts[1].(map[string]any)["phone"] {
		t.Errorf("list elements: %s", out)
	}
	if m.Key("A##B#", "#") != m.StandIn("A")+"##"+m.StandIn("B")+"#" {
		t.Errorf("empty segments and a trailing delimiter: %q", m.Key("A##B#", "#"))
	}
	var none *Mask
	if none.Plain(map[string]any{"x": "y"}, nil)["x"] != "y" || none.KeyIf("PK", "USA", "#") != "USA" {
		t.Error("a nil mask changed something")
	}
}

// TestMaskUnionSharesStandIns: the command line's --mask and a table's
// mask = [...] give one value one stand-in.
func TestMaskUnionSharesStandIns(t *testing.T) {
	flag, _ := ParseMask([]string{"Email"})
	conf, _ := ParseMask([]string{"Owner"})
	u := flag.Union(conf)
	if u.StandIn("x") != flag.StandIn("x") || strings.Join(u.Attributes(), ",") != "Email,Owner" {
		t.Fatalf("%v %q %q", u.Attributes(), u.StandIn("x"), flag.StandIn("x"))
	}
}

var standIn = regexp.MustCompile(`‹m[0-9]+›`)

// FuzzMask: whatever the value, what is left of it is stand-ins and
// delimiters only, as many delimiters as it had, and the same value always
// gets the same stand-in.
func FuzzMask(f *testing.F) {
	for _, s := range []string{"USA", "NY#NEWYORK#10001", "", "#", "‹m1›", "a.b"} {
		f.Add(s, "#")
	}
	f.Fuzz(func(t *testing.T, value, delim string) {
		m, _ := ParseMask([]string{"K"})
		once, again := m.Key(value, delim), m.Key(value, delim)
		if once != again {
			t.Fatalf("%q masked two ways: %q, %q", value, once, again)
		}
		if delim != "" && strings.Count(once, delim) < strings.Count(value, delim) {
			t.Fatalf("%q lost its shape: %q", value, once)
		}
		// Nothing but stand-ins and delimiters is left of the value.
		rest := standIn.ReplaceAllString(once, "")
		if delim != "" {
			rest = strings.ReplaceAll(rest, delim, "")
		}
		if rest != "" {
			t.Fatalf("%q masked as %q leaves %q", value, once, rest)
		}
	})
}
