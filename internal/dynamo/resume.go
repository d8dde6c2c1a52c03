package dynamo

import (
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
		return nil, fmt.Errorf("is not a resume token (copy it whole from the message that gave it)")
	}
	var wire map[string]map[string]json.RawMessage
	if err := json.Unmarshal(b, &wire); err != nil || len(wire) == 0 {
		return nil, fmt.Errorf("is not a resume token (copy it whole from the message that gave it)")
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
