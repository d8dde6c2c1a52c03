package dynamo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// ErrorKind sorts failures by what the user can do about them.
type ErrorKind string

const (
	KindNotFound     ErrorKind = "not-found"
	KindUnreachable  ErrorKind = "unreachable"
	KindCredentials  ErrorKind = "credentials"
	KindAccessDenied ErrorKind = "access-denied"
	KindThrottled    ErrorKind = "throttled"
	KindValidation   ErrorKind = "validation"
	KindCancelled    ErrorKind = "cancelled"
	KindOther        ErrorKind = "other"
)

// Error is a failed call explained for people: what went wrong and what to
// do about it. It never holds credentials.
type Error struct {
	Op   string
	Kind ErrorKind
	Msg  string
	Hint string
	Err  error
}

func (e *Error) Error() string {
	s := e.Op + ": " + e.Msg
	if e.Hint != "" {
		s += " — " + e.Hint
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Explain wraps err, a failure of op, as an *Error with a hint. It returns nil
// for nil and leaves an *Error as it is.
func Explain(op string, err error) error {
	if err == nil {
		return nil
	}
	var done *Error
	if errors.As(err, &done) {
		return err
	}
	e := &Error{Op: op, Kind: KindOther, Err: err, Msg: firstLine(err.Error())}
	if explainOurs(e, err) || explainTransport(e, err) || explainAPI(e, err) {
		return e
	}
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	switch {
	case strings.Contains(err.Error(), "failed to retrieve credentials") || strings.Contains(err.Error(), "no EC2 IMDS role found") ||
		strings.Contains(err.Error(), "failed to refresh cached credentials"):
		e.Kind, e.Msg, e.Hint = KindCredentials, "no usable AWS credentials", "set AWS_PROFILE or pass --profile (run `aws sso login` for SSO profiles), or try --demo"
	case errors.As(err, &dnsErr) || errors.As(err, &opErr) || errors.As(err, &netErr):
		e.Kind, e.Msg, e.Hint = KindUnreachable, "cannot reach the endpoint", "is the server running? check --endpoint-url and --region"
	}
	return e
}

// explainOurs explains the answers dynascope's own checks refused and
// the reads that never reached or never heard from the server.
func explainOurs(e *Error, err error) bool {
	var silent *NoAnswerError
	var huge *OversizedAnswerError
	var damaged *ChecksumError
	var unreach *UnreachableError
	var badValue *ValueError
	switch {
	case errors.As(err, &badValue):
		e.Msg, e.Hint = badValue.Error(), "DynamoDB never sends this: check --endpoint-url, or what stands between you and DynamoDB"
	case errors.As(err, &huge):
		e.Msg, e.Hint = huge.Error(), "check --endpoint-url: is it the DynamoDB server's address and port?"
	case errors.As(err, &damaged):
		e.Kind, e.Msg, e.Hint = KindUnreachable, damaged.Error()+attemptsOf(err), "check the network or the proxy between you and DynamoDB, then retry"
	case errors.As(err, &unreach):
		e.Kind, e.Msg, e.Hint = KindUnreachable, unreach.Error(), "is the server running? check --endpoint-url and --region"
	case errors.As(err, &silent):
		e.Kind, e.Msg, e.Hint = KindUnreachable, silent.Error(), "check --endpoint-url or raise --timeout"
	default:
		return false
	}
	return true
}

// explainTransport explains a read cancelled, timed out or cut off, and
// an answer that came from something other than DynamoDB.
func explainTransport(e *Error, err error) bool {
	var notFound *types.ResourceNotFoundException
	var apiErr smithy.APIError
	var respErr *awshttp.ResponseError
	switch {
	case errors.Is(err, context.Canceled):
		e.Kind, e.Msg, e.Hint = KindCancelled, "cancelled", ""
	case errors.Is(err, context.DeadlineExceeded):
		e.Kind, e.Msg, e.Hint = KindUnreachable, "timed out", "check the network or --endpoint-url, then retry"
	case errors.Is(err, io.ErrUnexpectedEOF) || brokenMidAnswer(err):
		e.Kind, e.Msg, e.Hint = KindUnreachable, "the connection broke in the middle of an answer", "retry (r); if it keeps happening, check the network or proxy"
	case errors.As(err, &notFound):
		e.Kind, e.Msg, e.Hint = KindNotFound, "no such table", "check the name and --region; `dynascope tables` lists the tables"
	case errors.As(err, &respErr) && respErr.HTTPStatusCode() > 0 && (!errors.As(err, &apiErr) || apiErr.ErrorCode() == "UnknownError"):
		// Something answered, but not as DynamoDB does: a web server on
		// that port, a proxy, a load balancer in trouble.
		e.Kind, e.Msg = KindUnreachable, fmt.Sprintf("the endpoint answered HTTP %d, not as DynamoDB does", respErr.HTTPStatusCode())
		e.Hint = "check --endpoint-url: is it the DynamoDB server's address and port?"
		if respErr.HTTPStatusCode() >= 500 {
			e.Hint = "the server failed; retry in a moment, or check --endpoint-url"
		}
	default:
		return false
	}
	return true
}

// explainAPI explains an error DynamoDB itself answered, by its code.
func explainAPI(e *Error, err error) bool {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	e.Msg = apiErr.ErrorCode() + ": " + firstLine(apiErr.ErrorMessage())
	switch code := apiErr.ErrorCode(); {
	case code == "ResourceNotFoundException":
		e.Kind, e.Msg, e.Hint = KindNotFound, "no such table", "check the name and --region; `dynascope tables` lists the tables"
	case code == "ExpiredTokenException" || code == "ExpiredToken" || code == "UnrecognizedClientException" ||
		code == "InvalidSignatureException" || code == "MissingAuthenticationTokenException":
		e.Kind, e.Hint = KindCredentials, "refresh your credentials (`aws sso login --profile NAME`, or new keys), then retry"
	case code == "AccessDeniedException":
		e.Kind, e.Hint = KindAccessDenied, "this identity may not read here; it needs dynamodb:ListTables, DescribeTable, Query, Scan and GetItem"
	case code == "ProvisionedThroughputExceededException" || code == "ThrottlingException" || code == "RequestLimitExceeded":
		e.Kind, e.Hint = KindThrottled, "DynamoDB is throttling reads; wait a moment and retry"
	case code == "ValidationException" || code == "SerializationException":
		e.Kind, e.Hint = KindValidation, "the request was malformed; check the key values and names"
	}
	return true
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// KindOf returns the kind of an explained error, or KindOther.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindOther
}

// Refused reports whether err is a read refused for what it asked (the
// request malformed, the table or index gone, the identity not allowed):
// asked again it is refused again, so no resume token is offered for it.
// A read throttled, timed out, cut off or cancelled is not refused: the
// same read, resumed, goes on.
func Refused(err error) bool {
	switch KindOf(err) {
	case KindValidation, KindNotFound, KindAccessDenied:
		return true
	}
	return false
}

// Errorf builds an *Error for a failure found before any request was sent.
func Errorf(op string, kind ErrorKind, hint, format string, args ...any) error {
	return &Error{Op: op, Kind: kind, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// attemptsOf says how many attempts a retried error took (" after 3
// attempts"), or nothing.
func attemptsOf(err error) string {
	var max *retry.MaxAttemptsError
	if errors.As(err, &max) {
		return fmt.Sprintf(", %d attempts", max.Attempt)
	}
	return ""
}

// brokenMidAnswer reports an answer whose reading failed on the
// connection after its status line came: reset by the other end, which
// Go's reader sees as a reset or as its own connection closed under it
// (the SDK treats the two alike). It is the network, not an answer that
// is not DynamoDB's: "the endpoint answered HTTP 200, not as DynamoDB
// does" was said of a reset in the middle of a page.
func brokenMidAnswer(err error) bool {
	var respErr *awshttp.ResponseError
	var op *net.OpError
	return errors.As(err, &respErr) && errors.As(err, &op) && op.Op == "read" &&
		(errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET))
}
