package dataload

import (
	"fmt"
	"runtime/debug"

	"github.com/dynascope/dynascope/internal/files"
)

// itemFloor is the least memory one stored item takes in the embedded
// backend (its map, its key values, its place in the partition), however
// small it is: what a manifest's item count alone says about a load.
const itemFloor = 256

// ceiling is the most memory a load may take (--data-max): refused up
// front from what the manifests say, where they say it, and during the
// load once what it read passes it. Both count a lower bound (an item's
// text, and itemFloor for each), so the ceiling never refuses data that
// would fit; the process itself holds somewhat more.
type ceiling struct {
	max      int64  // bytes; 0: none
	from     string // where the figure comes from, for the message
	estimate int64  // the least the planned load takes, from manifests
}

// refuse is the one error a load past its ceiling ends with: what it
// would take, and what to do.
func (c ceiling) refuse(path, what string) error {
	return &Error{File: path, Msg: what + ", over --data-max " + files.Size(c.max) + c.from,
		Hint: "open a smaller export, a table at a time (one --data per table), or raise --data-max"}
}

// plan adds what a manifest says of an export to the estimate: its items'
// billed size, and at least itemFloor for each.
func (c *ceiling) plan(sum manifestSummary) {
	c.estimate += max(sum.BilledSizeBytes, sum.ItemCount*itemFloor)
}

// before refuses a load the manifests already say is too big.
func (c ceiling) before(paths []string) error {
	if c.max <= 0 || c.estimate <= c.max {
		return nil
	}
	path, says := "", "the exports' manifests say"
	if len(paths) == 1 {
		path, says = paths[0], "the export's manifest says"
	}
	return c.refuse(path, fmt.Sprintf("%s the data takes at least %s of memory", says, files.Size(c.estimate)))
}

// during refuses a load whose data read so far takes more than the
// ceiling: at least its text (bytes read, unpacked) and itemFloor an
// item, the same lower bound the manifests give up front.
func (c ceiling) during(path string, items int, bytes int64) error {
	if c.max <= 0 {
		return nil
	}
	if took := bytes + int64(items)*itemFloor; took > c.max {
		return c.refuse(path, fmt.Sprintf("the data read takes at least %s of memory after %d items", files.Size(took), items))
	}
	return nil
}

// hold keeps the garbage collector from letting the heap grow past twice
// the ceiling while a load runs (the data, and as much again of garbage
// and of items on their way), so that a load refused at the ceiling
// never took the machine's memory first; the returned function restores
// the limit before.
func (c ceiling) hold() func() {
	if c.max <= 0 {
		return func() {}
	}
	before := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(before, 2*c.max))
	return func() { debug.SetMemoryLimit(before) }
}
