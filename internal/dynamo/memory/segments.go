package memory

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// A parallel Scan (Segment of TotalSegments) reads one of TotalSegments
// contiguous stretches of the scan order, split as dynalite splits it: by
// the first three hex digits of a partition's hash (4,096 prefixes), so
// every item of a partition is in one segment, and reading the segments
// one after another reads the table once, in its scan order.

// DynamoDB's bounds (the API reference: TotalSegments 1 to 1,000,000,
// Segment 0 to 999,999). dynalite checks only the lower ones.
const (
	maxTotalSegments = 1000000
	hashPrefixes     = 4096
)

// segments is a Scan's Segment and TotalSegments, as sent.
type segments struct{ segment, total *int32 }

// scanShape is DynamoDB's check of a Scan's numbers before anything else,
// every failure in one message, in the order it lists them (totalSegments,
// segment, limit).
func scanShape(in *dynamodb.ScanInput) error {
	var errs []string
	bound := func(v *int32, name string, lo, hi int32) {
		switch {
		case v == nil:
		case *v < lo:
			errs = append(errs, fmt.Sprintf("Value '%d' at '%s' failed to satisfy constraint: Member must have value greater than or equal to %d", *v, name, lo))
		case *v > hi:
			errs = append(errs, fmt.Sprintf("Value '%d' at '%s' failed to satisfy constraint: Member must have value less than or equal to %d", *v, name, hi))
		}
	}
	bound(in.TotalSegments, "totalSegments", 1, maxTotalSegments)
	bound(in.Segment, "segment", 0, maxTotalSegments-1)
	if in.Limit != nil && *in.Limit < 1 {
		errs = append(errs, fmt.Sprintf("Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1", *in.Limit))
	}
	if len(errs) == 0 {
		return nil
	}
	plural := ""
	if len(errs) > 1 {
		plural = "s"
	}
	return validation(fmt.Sprintf("%d validation error%s detected: %s", len(errs), plural, strings.Join(errs, "; ")))
}

// check is DynamoDB's check that Segment and TotalSegments come together,
// Segment below TotalSegments. dynalite lets a Segment of 0 through
// without TotalSegments; DynamoDB documents both as required together.
func (s segments) check() error {
	switch {
	case s.segment != nil && s.total == nil:
		return validation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	case s.total != nil && s.segment == nil:
		return validation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present")
	case s.total != nil && *s.segment >= *s.total:
		return validation(fmt.Sprintf("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", *s.segment, *s.total))
	}
	return nil
}

// index is the segment read (0 for a whole Scan).
func (s segments) index() int64 {
	if s.total == nil || *s.total <= 1 {
		return 0
	}
	return int64(*s.segment)
}

// of is the segment holding the partition of hash prefix hash (0 for a
// whole Scan): prefix p is in segment floor(p × TotalSegments / 4096),
// which is dynalite's range [ceil(4096 s / N), ceil(4096 (s+1) / N) - 1].
func (s segments) of(hash string) int64 {
	if s.total == nil || *s.total <= 1 {
		return 0
	}
	p, _ := strconv.ParseUint(hash[:3], 16, 32)
	return int64(p) * int64(*s.total) / hashPrefixes
}

// startError is DynamoDB's refusal of a start key from another segment.
func (s segments) startError() error {
	return validation(fmt.Sprintf("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d", *s.total, *s.segment))
}
