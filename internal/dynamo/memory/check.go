package memory

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MaxItemBytes is DynamoDB's limit on one item's size.
const MaxItemBytes = 400 * 1024

// CheckItem is DynamoDB's check of an item written: every value as a
// request's values are checked (numbers that parse and fit, sets
// non-empty and without duplicates) and its size at most MaxItemBytes.
// It returns what DynamoDB would say, or "" when it would take the item.
func CheckItem(item map[string]types.AttributeValue) string {
	for _, name := range sortedKeys(item) {
		if msg := checkValue(item[name]); msg != "" {
			return "attribute " + name + ": " + msg
		}
	}
	if n := itemSize(item); n > MaxItemBytes {
		return fmt.Sprintf("the item is %d KB: DynamoDB's limit is 400 KB an item", (n+1023)/1024)
	}
	return ""
}
