package cli

import (
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// emptyMeans names the flags whose empty value says something: a prefix
// of nothing is the top of the partition, as leaving it out is.
// range's --overlap 0s re-reads nothing below the newest key.
var emptyMeans = map[string]bool{"prefix": true, "sk-prefix": true, "overlap=0": true}

// emptyHints says, for the flags where a word more helps, what to give
// instead of nothing; the others are told to give a value or leave the
// flag out.
var emptyHints = map[string]string{
	"table":        "give the table's name (dynascope tables lists them)",
	"pk":           "give the partition key's value",
	"versions":     "give a versioned item's name, or --versions alone for all of them",
	"delimiter":    "give the one to three characters between levels, such as '#' or '::', or none to split nothing; leave --delimiter out to have it detected",
	"attribute":    "give the attribute's name, or leave --attribute out for the one TTL is enabled on",
	"index":        "give a GSI or LSI name, or leave --index out to read the base table",
	"filter":       `give a condition such as 'status = "FAILED"', or leave --filter out to keep every item`,
	"time-format":  "give epoch-s, epoch-ms, epoch-us or a Go layout such as 2006-01-02T15:04:05Z07:00, or leave --time-format out to have it detected",
	"resume":       "give the token the stopped read printed, or leave --resume out to read from the start",
	"endpoint-url": "give a URL such as http://localhost:8000, or leave --endpoint-url out to read AWS itself",
	"mask":         "name the attributes to mask, such as --mask Email,Owner.phone, or leave --mask out",
	"data":         "give the path of an export folder or a data file",
	"schema":       "give the file `aws dynamodb describe-table --table-name NAME` wrote",
	"tables":       "name the demo tables to write, such as --tables Locations,Shop, or leave --tables out for all",
	"timeout":      "give a duration such as 10s or 1m, or leave --timeout out for 10s",
	"interval":     "give a duration such as 2s, or leave --interval out for 1s backing off to 10s",
	"output":       "give jsonl, json, csv or a file name, or leave --output out",
}

// refuseEmpty refuses a flag given as nothing (--delimiter "", --mask "",
// --data "", --timeout 0s): an unset shell variable more often than a
// wish, and taken as "not given" it would do what the user did not ask
// for (the detected delimiter, the table's TTL attribute, AWS in place of
// an endpoint, no attribute masked).
func refuseEmpty(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if err != nil || emptyMeans[fl.Name] {
			return
		}
		hint, ok := emptyHints[fl.Name]
		if !ok {
			hint = "give a value, or leave --" + fl.Name + " out"
		}
		if fl.Name == "pk" && pkOptional[cmd.Name()] {
			hint = "give the partition key's value, or leave --pk out for the whole table"
		}
		switch {
		case fl.Value.Type() == "string" && fl.Value.String() == "":
			err = usage(hint, "--%s is given empty", fl.Name)
		case fl.Value.Type() == "duration" && fl.Value.String() == "0s" && !emptyMeans[fl.Name+"=0"]:
			// 0 is how the default is held: given, it would be taken
			// as not given (--timeout 0 waited 10s a try).
			err = usage(hint, "--%s 0s is no duration", fl.Name)
		default:
			sv, ok := fl.Value.(pflag.SliceValue)
			if ok && (len(sv.GetSlice()) == 0 || fl.Value.Type() == "stringArray" && slices.Contains(sv.GetSlice(), "")) {
				// --mask '' masked nothing, --data '' opened no file,
				// seed --tables '' wrote every table.
				err = usage(hint, "--%s is given empty", fl.Name)
			}
		}
	})
	return err
}

// pkOptional are the commands that read a whole table where --pk is left
// out (the explorer opens the table).
var pkOptional = map[string]bool{"ttl": true, "changes": true, "entities": true, "dynascope": true}
