package dynamo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// MaxAnswerBytes bounds one response's body. DynamoDB's answers are
// bounded (a page holds at most 1 MB of items, an item at most 400 KB; in
// JSON with its type tags and escapes a page stays a few MB), so a body
// past this is not DynamoDB's, and reading it on would only fill memory.
const MaxAnswerBytes = 16 << 20

// OversizedAnswerError is a response body larger than MaxAnswerBytes.
type OversizedAnswerError struct {
	Bytes   int64 // the size the server announced, or how much was read
	AtLeast bool  // Bytes is only what was read before giving up
}

func (e *OversizedAnswerError) Error() string {
	more := ""
	if e.AtLeast {
		more = "more than "
	}
	return fmt.Sprintf("the server sent %s%d MB for one page: not a DynamoDB answer", more, e.Bytes>>20)
}

// ChecksumError is a response whose body does not match its X-Amz-Crc32:
// it changed on the way, so nothing in it can be trusted.
type ChecksumError struct {
	Want, Got uint32
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("the answer was damaged on the way (X-Amz-Crc32 %d, body %d)", e.Want, e.Got)
}

// checkedAnswers reads every response body before the SDK decodes it: at
// most MaxAnswerBytes of it, and checked against its X-Amz-Crc32. The
// SDK's own check only logs a mismatch (when the body is closed, after it
// was decoded and used), and its decoder reads whatever size it is sent.
func checkedAnswers(stack *middleware.Stack) error {
	// After: innermost in the deserialize step, so it sees the raw body
	// before the operation's decoder does, on every attempt.
	return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("dynascopeCheckedAnswer",
		func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleDeserialize(ctx, in)
			if err != nil {
				return out, md, err
			}
			resp, ok := out.RawResponse.(*smithyhttp.Response)
			if !ok || resp.Body == nil {
				return out, md, err
			}
			body, err := readAnswer(resp)
			if err != nil {
				return out, md, err
			}
			if resp.StatusCode == 200 {
				if err := checkAnswerValues(middleware.GetOperationName(ctx), body); err != nil {
					return out, md, err
				}
			}
			resp.Body = io.NopCloser(bytes.NewReader(body))
			return out, md, nil
		}), middleware.After)
}

// readAnswer reads resp's body, refusing one past MaxAnswerBytes (before
// reading it when its length is announced) and one whose CRC32 is not
// the one its header gives.
func readAnswer(resp *smithyhttp.Response) ([]byte, error) {
	defer resp.Body.Close()
	if resp.ContentLength > MaxAnswerBytes {
		return nil, &OversizedAnswerError{Bytes: resp.ContentLength}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswerBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > MaxAnswerBytes {
		return nil, &OversizedAnswerError{Bytes: int64(len(body)), AtLeast: true}
	}
	if v := resp.Header.Get("X-Amz-Crc32"); v != "" {
		want, perr := strconv.ParseUint(v, 10, 32)
		if got := crc32.ChecksumIEEE(body); perr != nil || uint32(want) != got {
			return nil, &ChecksumError{Want: uint32(want), Got: got}
		}
	}
	return body, nil
}

// damagedIsRetryable sends a read whose answer was damaged again: the
// next one may arrive whole.
func damagedIsRetryable(err error) aws.Ternary {
	var ce *ChecksumError
	if errors.As(err, &ce) {
		return aws.TrueTernary
	}
	return aws.UnknownTernary
}
