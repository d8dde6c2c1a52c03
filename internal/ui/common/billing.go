package common

import (
	"fmt"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// RCU is read capacity in the status bar's words: "0.5 RCU", or "0.5 RCU
// est." where the figure is DynamoDB's bill worked out here rather than the
// server's report. Every view says a cost this one way, so that two
// figures on one screen agree.
func RCU(units float64, estimated bool) string {
	if estimated {
		return fmt.Sprintf("%.1f RCU est.", units)
	}
	return fmt.Sprintf("%.1f RCU", units)
}

// BilledRCU is what a cost's reads are billed by DynamoDB (at least 0.5 a
// read, at least what the items sent back weigh), in RCU's words.
func BilledRCU(c dynamo.Cost) string { return RCU(c.Billed, c.Estimated) }
