package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// emptyMeans names the flags whose empty value says something: a prefix
// of nothing is the top of the partition, as leaving it out is.
var emptyMeans = map[string]bool{"prefix": true, "sk-prefix": true}

// emptyHints says, for the flags where a word more helps, what to give
// instead of nothing; the others are told to give a value or leave the
// flag out.
var emptyHints = map[string]string{
	"table":        "give the table's name (dynascope tables lists them)",
	"pk":           "give the partition key's value",
	"versions":     "give a versioned item's name, or --versions alone for all of them",
	"delimiter":    "give one character, such as '#' or '/', or none to split nothing; leave --delimiter out to have it detected",
	"attribute":    "give the attribute's name, or leave --attribute out for the one TTL is enabled on",
	"index":        "give a GSI or LSI name, or leave --index out to read the base table",
	"filter":       `give a condition such as 'status = "FAILED"', or leave --filter out to keep every item`,
	"time-format":  "give epoch-s, epoch-ms, epoch-us or a Go layout such as 2006-01-02T15:04:05Z07:00, or leave --time-format out to have it detected",
	"resume":       "give the token the stopped read printed, or leave --resume out to read from the start",
	"endpoint-url": "give a URL such as http://localhost:8000, or leave --endpoint-url out to read AWS itself",
	"output":       "give jsonl, json, csv or a file name, or leave --output out",
}

// refuseEmpty refuses a string flag given as nothing (--delimiter ”):
// an unset shell variable more often than a wish, and taken as "not
// given" it would read something the user did not ask for (the detected
// delimiter, the table's TTL attribute, AWS in place of an endpoint).
func refuseEmpty(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if err != nil || emptyMeans[fl.Name] || fl.Value.Type() != "string" || fl.Value.String() != "" {
			return
		}
		hint, ok := emptyHints[fl.Name]
		if !ok {
			hint = "give a value, or leave --" + fl.Name + " out"
		}
		err = usage(hint, "--%s is given empty", fl.Name)
	})
	return err
}
