package dynamo

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's size limits on what a read may send: a request over one is
// refused here, before sending, with the limit named, instead of by the
// server (or, worse, by a backend that does not check).
const (
	MaxExpressionBytes = 4096 // each expression string: key condition, filter, projection
	MaxPKValueBytes    = 2048 // a partition key value
	MaxSKValueBytes    = 1024 // a sort key value
	// MaxOperators is how many operators and functions one expression
	// may hold (AND, OR, NOT, a comparison, BETWEEN, IN, a function).
	MaxOperators = 300
)

var valueRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`:[A-Za-z0-9_]+`) })

// CheckQuery refuses a Query that breaks a size limit.
func CheckQuery(in *dynamodb.QueryInput) error {
	op := "query " + aws.ToString(in.TableName)
	for _, e := range []struct{ name, text string }{
		{"key condition", aws.ToString(in.KeyConditionExpression)},
		{"filter", aws.ToString(in.FilterExpression)},
		{"projection", aws.ToString(in.ProjectionExpression)},
	} {
		if err := checkExpression(op, e.name, e.text); err != nil {
			return err
		}
	}
	// The expression builder writes the partition key's condition first:
	// its value is the first one named, every later one a sort key's.
	for i, ref := range valueRef().FindAllString(aws.ToString(in.KeyConditionExpression), -1) {
		limit, which := MaxSKValueBytes, "sort key"
		if i == 0 {
			limit, which = MaxPKValueBytes, "partition key"
		}
		if n := valueBytes(in.ExpressionAttributeValues[ref]); n > limit {
			return Errorf(op, KindValidation, fmt.Sprintf("shorten it: DynamoDB allows a %s value of at most %d bytes", which, limit),
				"the %s value is %d bytes, over DynamoDB's limit of %d", which, n, limit)
		}
	}
	return nil
}

// CheckScan refuses a Scan that breaks a size limit.
func CheckScan(in *dynamodb.ScanInput) error {
	op := "scan " + aws.ToString(in.TableName)
	if err := checkExpression(op, "filter", aws.ToString(in.FilterExpression)); err != nil {
		return err
	}
	return checkExpression(op, "projection", aws.ToString(in.ProjectionExpression))
}

// ErrOverLimit is what a request refused by CheckQuery or CheckScan
// wraps: its hint says what to write instead.
var ErrOverLimit = errors.New("over a DynamoDB limit")

func checkExpression(op, name, text string) error {
	var err error
	if len(text) > MaxExpressionBytes {
		err = Errorf(op, KindValidation, fmt.Sprintf("make the %s shorter: DynamoDB allows an expression of at most 4 KiB (%d bytes)", name, MaxExpressionBytes),
			"the %s expression is %d bytes, over DynamoDB's 4 KiB expression limit", name, len(text))
	} else if n := operators(text); n > MaxOperators {
		err = Errorf(op, KindValidation, fmt.Sprintf("write the %s with fewer conditions (an or of equalities as one IN of up to 100 values): DynamoDB allows %d operators and functions an expression", name, MaxOperators),
			"the %s expression holds %d operators and functions, over DynamoDB's limit of %d", name, n, MaxOperators)
	}
	if err != nil {
		err.(*Error).Err = ErrOverLimit
	}
	return err
}

// operators counts an expression's operators and functions as DynamoDB
// does against MaxOperators: AND, OR, NOT, each comparison, BETWEEN (its
// AND no other), IN, and each function called (size too). Names and
// values in an expression are placeholders (#0, :0), so every bare word
// is a keyword or a function's name.
func operators(text string) int {
	n, betweens := 0, 0
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '#' || c == ':' || isExprWord(c):
			j := i + 1
			for j < len(text) && isExprWord(text[j]) {
				j++
			}
			word := strings.ToUpper(text[i:j])
			switch {
			case c == '#' || c == ':':
			case word == "AND" || word == "OR" || word == "NOT" || word == "IN":
				n++
			case word == "BETWEEN":
				n++
				betweens++
			case strings.HasPrefix(strings.TrimLeft(text[j:], " \t\n\r"), "("):
				n++ // a function
			}
			i = j
		case c == '<' || c == '>':
			n++
			i++
			if i < len(text) && (text[i] == '=' || text[i] == '>') {
				i++
			}
		case c == '=':
			n++
			i++
		default:
			i++
		}
	}
	return n - betweens // BETWEEN's AND is no operator of its own
}

func isExprWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// valueBytes is a key value's size as DynamoDB counts it.
func valueBytes(v types.AttributeValue) int {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return len(x.Value)
	case *types.AttributeValueMemberN:
		return len(x.Value)
	case *types.AttributeValueMemberB:
		return len(x.Value)
	}
	return 0
}
