package dynamo

import (
	"fmt"
	"strings"
)

// Bounds on what one read of a stream may take: DynamoDB's own are far
// below them (a stream of a large table lists a few thousand shards in a
// day; a shard lives about four hours, at most 1,000 records a second),
// so a server past one is not DynamoDB, and reading on would never end.
const (
	// MaxStreamShards bounds the shards DescribeStream may list.
	MaxStreamShards = 100_000
	// MaxShardPages bounds the GetRecords pages read of one shard up to
	// the present.
	MaxShardPages = 50_000
)

// StreamCursorError is a Streams answer that does not move on: a
// GetRecords answer handing back the iterator it was sent, records whose
// sequence numbers repeat or go back, a DescribeStream repeating a
// LastEvaluatedShardId, or more shards or pages than any stream holds.
type StreamCursorError struct {
	What string
}

func (e *StreamCursorError) Error() string {
	return e.What + ": stopped rather than read the same records forever"
}

// streamCursorFailure is the one error a stream read ends with when the
// server's cursor does not move on.
func streamCursorFailure(op, format string, args ...any) error {
	err := &StreamCursorError{What: fmt.Sprintf(format, args...)}
	return &Error{Op: op, Kind: KindOther, Msg: err.Error(), Err: err,
		Hint: "DynamoDB never does this: check --endpoint-url, or what stands between you and DynamoDB"}
}

// seqAfter reports whether sequence number b comes after a. DynamoDB's
// are decimal numbers of up to 40 digits; one that is not (another
// server's) is taken to move on.
func seqAfter(a, b string) bool {
	x, y := strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if !decimal(x) || !decimal(y) || a == "" || b == "" {
		return true
	}
	if len(x) != len(y) {
		return len(y) > len(x)
	}
	return y > x
}

func decimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// shardPage checks one GetRecords answer against where it was read from:
// sent, the iterator it was sent; last, the sequence number read last.
// It returns the new last sequence number.
func shardPage(shard, sent string, next *string, seqs []string, last string) (string, error) {
	if len(seqs) > 0 && next != nil && *next == sent {
		return last, streamCursorFailure("GetRecords", "the server gave back the shard iterator it was sent, with records, for shard %s", shard)
	}
	for _, s := range seqs {
		if last != "" && !seqAfter(last, s) {
			return last, streamCursorFailure("GetRecords", "shard %s's sequence numbers went back (%s after %s)", shard, clip(s), clip(last))
		}
		last = s
	}
	return last, nil
}

// clip keeps a sequence number short enough for one line.
func clip(s string) string {
	if len(s) > 48 {
		return s[:48] + "…"
	}
	return s
}
