package dynamo

import (
	"bytes"
	"math/big"
	"reflect"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CursorError is a page whose LastEvaluatedKey does not move past where
// the read started: read on from it, a pager would ask for the same
// items again and again (a server repeating its cursor made `items` print
// 8,103 lines of a 3-item partition). DynamoDB's cursor always moves on.
type CursorError struct {
	Backwards bool   // the cursor went back rather than repeating
	Name      string // the cursor's name in the answer ("": LastEvaluatedKey)
}

func (e *CursorError) Error() string {
	name := e.Name
	if name == "" {
		name = "LastEvaluatedKey"
	}
	if e.Backwards {
		return "the server's cursor (" + name + ") went backwards: stopped rather than read the same items again"
	}
	return "the server gave back the cursor (" + name + ") it was sent: stopped rather than read the same page forever"
}

// checkCursor is nil when a page read from start (nil: the beginning) may
// be read on from last: last is not start again and, where the order is
// known (skName, in the direction reverse says), not behind it. Every
// pager reads through QueryPage, CountPage or ScanKeysPage, which check
// here, so none of them can loop.
func checkCursor(start, last Item, skName string, reverse bool) error {
	if len(start) == 0 || len(last) == 0 {
		return nil
	}
	if sameKey(start, last) {
		return &CursorError{}
	}
	if skName == "" {
		return nil
	}
	c, ok := compareKeyValues(last[skName], start[skName])
	if ok && (c < 0 && !reverse || c > 0 && reverse) {
		return &CursorError{Backwards: true}
	}
	return nil
}

// sameKey reports whether two keys hold the same attributes and values.
func sameKey(a, b Item) bool {
	if len(a) != len(b) {
		return false
	}
	for name, av := range a {
		bv, ok := b[name]
		if !ok {
			return false
		}
		if !sameCursorValue(av, bv) {
			return false
		}
	}
	return true
}

// sameCursorValue reports whether two values are equal: numbers by value
// (1E+1 is 10), anything else as it is (masked stand-ins too, which stand
// for one value each).
func sameCursorValue(a, b types.AttributeValue) bool {
	if x, ok := a.(*types.AttributeValueMemberN); ok {
		if c, ok := compareKeyValues(x, b); ok {
			return c == 0
		}
	}
	return reflect.DeepEqual(a, b)
}

// compareKeyValues orders two key values of one type as DynamoDB does
// (strings and binaries by their bytes, numbers by value); ok is false for
// values it cannot order: other types, different types, or masked
// stand-ins, whose order is not their values'.
func compareKeyValues(a, b types.AttributeValue) (int, bool) {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		if !ok || strings.Contains(x.Value, "‹m") || strings.Contains(y.Value, "‹m") {
			return 0, false
		}
		return strings.Compare(x.Value, y.Value), true
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x.Value, y.Value), true
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		if !ok {
			return 0, false
		}
		// A float of 256 bits orders DynamoDB's 38 digits exactly, and
		// cannot be made to hold a number of a million digits.
		p, _, err1 := new(big.Float).SetPrec(256).Parse(x.Value, 10)
		q, _, err2 := new(big.Float).SetPrec(256).Parse(y.Value, 10)
		if err1 != nil || err2 != nil {
			return 0, false
		}
		return p.Cmp(q), true
	}
	return 0, false
}

// cursorFailure is a page's error for a cursor that did not move on.
func cursorFailure(op string, err error) error {
	return &Error{Op: op, Kind: KindOther, Msg: err.Error(), Err: err,
		Hint: "DynamoDB never does this: check --endpoint-url, or what stands between you and DynamoDB"}
}
