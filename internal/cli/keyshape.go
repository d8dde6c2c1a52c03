package cli

import (
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// The key shapes children, versions and range need. A table (or index)
// whose keys are not of that shape is asked the wrong question, not a
// read that failed: exit 2, saying what to run instead, before its items
// are read.

// itemsInstead is the command that reads what the table does hold.
func (f itemsFlags) itemsInstead() string {
	args := []string{"--table", f.table}
	if f.index != "" {
		args = append(args, "--index", f.index)
	}
	return f.g.command("items", append(args, "--pk", f.pk)...)
}

// keyOn names where the key is: the table, or its index.
func (f itemsFlags) keyOn() string {
	if f.index != "" {
		return "index " + f.index + " of " + f.table
	}
	return "table " + f.table
}

// childrenShape refuses a key with no hierarchy to list: no sort key, or
// a number one.
func (f itemsFlags) childrenShape(key dynamo.KeySchema) error {
	switch {
	case key.SK == nil:
		return usage("a partition here is one item: read it with "+f.itemsInstead(), "children: %s has no sort key, so no hierarchy", f.keyOn())
	case key.SK.Type == domain.TypeN:
		return usage("list its items with "+f.itemsInstead()+", or a span of them with dynascope range",
			"children: sort key %s is a number, which has no hierarchy", domain.NameText(key.SK.Name))
	}
	return nil
}

// versionsShape refuses a key where no revision can be: versions live in
// string sort keys, or are a number sort key.
func (f itemsFlags) versionsShape(key dynamo.KeySchema) error {
	if !dynamo.VersionedKey(key) {
		return usage(dynamo.VersionKeysHint+"; read the partition with "+f.itemsInstead(),
			"versions: %s has no string or number sort key, so no versions", f.keyOn())
	}
	return nil
}

// rangeShape refuses a key with no sort key to hold time, or a binary one.
func (f itemsFlags) rangeShape(key dynamo.KeySchema) error {
	if key.SK == nil {
		return usage("a time range needs a sort key that holds time; read the partition's item with "+f.itemsInstead(), "range: %s has no sort key", f.keyOn())
	}
	if key.SK.Type == domain.TypeB {
		// Its keys were skipped as no time, and the partition said to hold none.
		return usage("read the partition in key order with "+f.itemsInstead(), "range: %s has a binary sort key (%s), and no time format reads bytes", f.keyOn(), export.OneLine(key.SK.Name))
	}
	return nil
}
