package common

import (
	"fmt"
	"strconv"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// RCU is read capacity in the status bar's words: "0.5 RCU", or "0.5 RCU
// est." where the figure is DynamoDB's bill worked out here rather than the
// server's report. Every view says a cost this one way, so that two
// figures on one screen agree.
// Figures of a thousand and more are grouped as counts are ("1,000.0
// RCU" beside "5,325 items").
func RCU(units float64, estimated bool) string {
	s := rcuFigure(units) + " RCU"
	if estimated {
		s += " est."
	}
	return s
}

// rcuFigure is units to one decimal, its whole part grouped by thousands.
func rcuFigure(units float64) string {
	s := fmt.Sprintf("%.1f", units)
	if len(s) < len("1000.0") {
		return s
	}
	whole, err := strconv.Atoi(s[:len(s)-2])
	if err != nil { // beyond an int: left ungrouped
		return s
	}
	return Thousands(whole) + s[len(s)-2:]
}

// BilledRCU is what a cost's reads are billed by DynamoDB (at least 0.5 a
// read, at least what the items sent back weigh), in RCU's words.
func BilledRCU(c dynamo.Cost) string { return RCU(c.Billed, c.Estimated) }
