package dynamo

import (
	"math"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// How DynamoDB bills a read, for servers that report something else:
// dynalite reports 0 for a read of nothing, moto a flat 1.0 for any read
// whatever its size. A read is billed at least one read unit (0.5 RCU
// eventually consistent), and at least what the items it sent back weigh
// (their sizes summed, rounded up to 4 KB, 0.5 RCU a 4 KB). That second
// figure is a lower bound: a projection sends back less than was read,
// and a filter drops items that were read and billed.

// readUnitBytes is what one read unit covers.
const readUnitBytes = 4096

// BilledRCU is what DynamoDB bills a read the server reported as
// reported RCU, which sent back items (consistent: a strongly consistent
// read, at 1.0 a unit). estimated says the server's figure was below that
// and the larger was taken.
func BilledRCU(reported float64, items []Item, consistent bool) (rcu float64, estimated bool) {
	perUnit := minReadUnits
	if consistent {
		perUnit = 2 * minReadUnits
	}
	size := 0
	for _, it := range items {
		size += ItemBytes(it)
	}
	least := math.Max(1, math.Ceil(float64(size)/readUnitBytes)) * perUnit
	if reported < least {
		return least, true
	}
	return reported, false
}

// ItemBytes is an item's size as DynamoDB counts it for capacity:
// attribute names and values in UTF-8 bytes, numbers at about one byte
// per two significant digits plus one, 3 bytes of overhead and one a
// member for lists and maps. It errs low, never high.
func ItemBytes(item Item) int {
	n := 0
	for name, v := range item {
		n += len(name) + attrBytes(v)
	}
	return n
}

func attrBytes(av types.AttributeValue) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberBytes(v.Value)
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += numberBytes(s)
		}
		return n
	case *types.AttributeValueMemberNULL, *types.AttributeValueMemberBOOL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + attrBytes(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for name, e := range v.Value {
			n += 1 + len(name) + attrBytes(e)
		}
		return n
	}
	return 0
}

// numberBytes is a number's size as DynamoDB stores it: its significant
// digits (leading and trailing zeros dropped) in base-100 pairs aligned on
// the decimal point, plus one byte, and one more when negative; zero is
// one byte. DynamoDB's guide says "about one byte per two significant
// digits plus one"; this is the exact form dynalite and the embedded
// backend bill, so a size shown is the size billed (one digit pair split
// by the point takes an extra byte: 12.34 is 3 bytes, 1.234 is 4).
func numberBytes(s string) int {
	s = strings.ToLower(strings.TrimSpace(s))
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	intPart, frac, _ := strings.Cut(mant, ".")
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	digits := strings.Trim(all, "0")
	if digits == "" {
		return 1
	}
	// first is the power of ten of the first significant digit.
	first := len(intPart) - 1 - lead + exp
	n := 1 + (len(digits)+1)/2
	if len(digits)%2 == 0 && first%2 == 0 {
		n++
	}
	if neg {
		n++
	}
	return n
}
