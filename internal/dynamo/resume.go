package dynamo

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A read stopped at its budget is resumed from where it stopped: its
// LastEvaluatedKey, written as one word a shell passes as it is
// (base64url of the key in DynamoDB JSON). A start key holds only key
// attributes, so only S, N and B values.

// ResumeToken is the word for a read that goes on after key.
func ResumeToken(key Item) string {
	b, _ := json.Marshal(WireItem(key))
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseResumeToken reads a ResumeToken back into a start key.
func ParseResumeToken(s string) (Item, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("is not a resume token, or was cut or edited")
	}
	var wire map[string]map[string]json.RawMessage
	if err := json.Unmarshal(b, &wire); err != nil || len(wire) == 0 {
		return nil, fmt.Errorf("is not a resume token, or was cut or edited")
	}
	key := Item{}
	for name, v := range wire {
		if len(v) != 1 {
			return nil, fmt.Errorf("holds a value of attribute %q that is not a key", name)
		}
		for t, raw := range v {
			switch t {
			case "S", "N":
				var s string
				if err := json.Unmarshal(raw, &s); err != nil {
					return nil, fmt.Errorf("holds a bad %s value for %q", t, name)
				}
				if t == "S" {
					key[name] = &types.AttributeValueMemberS{Value: s}
				} else {
					key[name] = &types.AttributeValueMemberN{Value: s}
				}
			case "B":
				var bs []byte
				if err := json.Unmarshal(raw, &bs); err != nil {
					return nil, fmt.Errorf("holds a bad B value for %q", name)
				}
				key[name] = &types.AttributeValueMemberB{Value: bs}
			default:
				return nil, fmt.Errorf("holds a %s value for %q, which no key holds", t, name)
			}
		}
	}
	return key, nil
}

// A search (scan.go) stopped at its budget goes on from where each of
// its streams stopped: the token holds every stream's LastEvaluatedKey
// (or that it is done) and the fingerprint of what it read, so a token
// given by another table, index, filter, statement or segment count is
// refused rather than read on from the wrong place. A checksum of what
// it holds ends it (tokenSumBytes), so a token edited by hand or cut
// short is refused, not read on from a key, or sized by item sizes, that
// no read gave.
type searchToken struct {
	Fingerprint string           `json:"f"`
	Streams     []map[string]any `json:"s"` // {"k": key} going on, {"d": true} done, {} not started
	Sizing      SearchSizing     `json:"z"`
}

// SearchToken is the word for a search that goes on from pos.
func SearchToken(fingerprint string, pos SearchPosition) string {
	t := searchToken{Fingerprint: fingerprint, Streams: make([]map[string]any, len(pos.Streams)), Sizing: pos.Sizing}
	for i, st := range pos.Streams {
		switch {
		case st.Done:
			t.Streams[i] = map[string]any{"d": true}
		case st.Start != nil:
			t.Streams[i] = map[string]any{"k": WireItem(st.Start)}
		default:
			t.Streams[i] = map[string]any{}
		}
	}
	b, _ := json.Marshal(t)
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(append(b, sum[:tokenSumBytes]...))
}

// tokenSumBytes is how much of the SHA-256 of its content ends a token.
const tokenSumBytes = 8

// tokenContent is a SearchToken's content, ok false where it is no
// base64url word or its checksum is not its content's.
func tokenContent(s string) ([]byte, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) <= tokenSumBytes {
		return nil, false
	}
	content, got := b[:len(b)-tokenSumBytes], b[len(b)-tokenSumBytes:]
	sum := sha256.Sum256(content)
	return content, subtle.ConstantTimeCompare(got, sum[:tokenSumBytes]) == 1
}

// ParseSearchToken reads a SearchToken back, refusing one whose
// fingerprint is not fingerprint.
func ParseSearchToken(s, fingerprint string) (*SearchPosition, error) {
	bad := fmt.Errorf("is not a resume token of scan or partiql, or was cut or edited (copy it whole from the message that gave it)")
	b, ok := tokenContent(s)
	if !ok {
		return nil, bad
	}
	var t struct {
		Fingerprint string                       `json:"f"`
		Streams     []map[string]json.RawMessage `json:"s"`
		Sizing      SearchSizing                 `json:"z"`
	}
	if err := json.Unmarshal(b, &t); err != nil || t.Fingerprint == "" || len(t.Streams) == 0 {
		return nil, bad
	}
	if t.Fingerprint != fingerprint {
		return nil, fmt.Errorf("was given by another read (its table, index, filter, statement or segments differ)")
	}
	if t.Sizing.RCU < 0 || t.Sizing.Items < 0 || t.Sizing.Largest < 0 || t.Sizing.Largest > MaxItemBytes || t.Sizing.Bytes < 0 ||
		t.Sizing.Run.Items < 0 || t.Sizing.Run.Largest < 0 || t.Sizing.Run.Largest > MaxItemBytes ||
		t.Sizing.Run.Heavy < 0 || t.Sizing.Run.Heavy > MaxItemBytes {
		return nil, bad
	}
	pos := &SearchPosition{Streams: make([]SearchStream, len(t.Streams)), Sizing: t.Sizing}
	for i, st := range t.Streams {
		if string(st["d"]) == "true" {
			pos.Streams[i].Done = true
			continue
		}
		if raw, ok := st["k"]; ok {
			key, err := ParseResumeToken(base64.RawURLEncoding.EncodeToString(raw))
			if err != nil {
				return nil, err
			}
			pos.Streams[i].Start = key
		}
	}
	return pos, nil
}

// SearchTokenStreams is how many streams a SearchToken holds (ok false
// for no token): a resumed scan reads in the segments it began with,
// whatever the table's size says now.
func SearchTokenStreams(s string) (n int, ok bool) {
	b, ok := tokenContent(s)
	if !ok {
		return 0, false
	}
	var t searchToken
	if json.Unmarshal(b, &t) != nil || len(t.Streams) == 0 {
		return 0, false
	}
	return len(t.Streams), true
}
