package dataload

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzParserAgreesWithEncodingJSON: whatever the fast parser accepts,
// encoding/json (through wireValue) accepts as the same item; and every
// item written by MarshalItem reads back unchanged.
func FuzzParserAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"PK":{"S":"a"},"SK":{"N":"-1.5e3"},"B":{"B":"AAE="},"T":{"BOOL":true},"Z":{"NULL":true}}`,
		`{"M":{"M":{"x":{"L":[{"S":"é\u00e9\ud83d\ude00"},{"NS":["1","2"]},{"SS":["a","b"]},{"BS":["AA==","AQ=="]}]}}}}`,
		`{"a":{"S":"\"\\\/\b\f\n\r\t"}}`, `{"a":{"S":"x","N":"1"}}`, `{"a":{}}`, `{"a":{"S":null,"N":"2"}}`,
		`{"a":{"SS":[]}}`, `{"a":{"SS":["x","x"]}}`, `{"a":{"N":"1e"}}`, `{"a":{"L":[]},"b":{"M":{}}}`, `{"a":{"B":""}}`,
		"{\"a\":{\"S\":\"\xff\"}}", `{"a":{"S":"\ud800"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := newParser().bareItem(data)
		if err != nil {
			return
		}
		want, err := decodeItem(data)
		if err != nil {
			t.Fatalf("the parser accepted what encoding/json refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("the parser read %#v, encoding/json %#v, from %q", got, want, data)
		}
		b, err := MarshalItem(got)
		if err != nil {
			t.Fatal(err)
		}
		again, err := newParser().bareItem(b)
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("%q does not read back: %v", b, err)
		}
	})
}

// BenchmarkParse compares the parser with encoding/json on one export line
// of a ~300-byte item.
func BenchmarkParse(b *testing.B) {
	line := []byte(`{"Item":{"Address":{"M":{"City":{"S":"Springfield"},"Street":{"S":"12 Main Street"},"Zip":{"S":"00012"}}},"Customer":{"S":"customer-000012@example.com"},"Lines":{"N":"4"},"Notes":{"S":"note 12 note 12 note 12 note 12 note 12 note 12 note 12 note 12 note 12 note 12 note 12 note 12 note 12 no"},"PK":{"S":"TENANT#0012"},"SK":{"S":"ORDER#2026-01-13T12:12:00Z#00000012"},"Status":{"S":"PENDING"},"Tags":{"SS":["priority","region-5"]},"Total":{"N":"12"}}}`)
	b.Run("parser", func(b *testing.B) {
		p := newParser()
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if _, err := p.exportLine(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			var d struct{ Item wireItem }
			if err := json.Unmarshal(line, &d); err != nil {
				b.Fatal(err)
			}
			if _, err := d.Item.toItem(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
