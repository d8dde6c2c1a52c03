package dynamo

// A search in the explorer shows a screen of matches, not the table: a
// Scan page of 1 MB (128 RCU, and a table of 64 MB reads sixteen
// segments in parallel: up to the budget at once) fills a screen of a
// filter that matches one item in five from its first hundred items. So
// the explorer says how many matches it wants now (SearchState.Want),
// and each read is sized to find them at the rate the reads so far have
// matched: a first read of wantFirstItems, then, where nothing matched,
// whole pages as before (a sparse filter pays one small read more), and
// where some did, the items that rate needs with a margin. Headless
// scans want every match (Want 0) and read as the budget allows.

const (
	// wantFirstItems is what a search's first read reads where matches
	// are wanted: a match rate seen on a read unit or two of small
	// items, at the cost of one.
	wantFirstItems = 100
	// wantLeastItems is the smallest read sized by a match rate: below
	// it a request costs its round trip for a fraction of a read unit.
	wantLeastItems = 50
	// wantMargin reads that much more than the rate seen needs, so that
	// a rate a little lower than seen is still one read.
	wantMargin = 1.5
	// wantMostItems is more items than a 1 MB page holds (at 3 bytes an
	// item): a rate that needs more reads whole pages, and no count
	// overflows the request's int32 Limit.
	wantMostItems = 1 << 20
)

// WantItems is how many items a filtered read reads to find want more
// matches, where scanned items read so far matched matched: a first read
// of wantFirstItems (or two reads' worth of want), then what the rate seen
// needs with a margin; 0 (no bound: whole pages) where none are wanted or
// none matched yet. A partition's filter (the explorer's f) sizes its
// reads by it as a table-wide search does.
func WantItems(want, scanned, matched int) int {
	switch {
	case want <= 0:
		return 0
	case scanned == 0:
		return max(wantFirstItems, 2*want)
	case matched == 0:
		return 0
	}
	rate := float64(matched) / float64(scanned)
	n := float64(want) / rate * wantMargin
	if n > wantMostItems {
		return 0 // rarer than any page can be sized for: whole pages
	}
	return max(wantLeastItems, int(n+0.5))
}

// wanted bounds reads to the items s.Want matches need at the rate seen
// so far (WantItems): spread over as many reads as have wantLeastItems
// each, no read larger than the plan made it.
func (s SearchState) wanted(reads []streamRead) []streamRead {
	total := WantItems(s.Want, s.Scanned, s.Matched)
	if total <= 0 || len(reads) == 0 {
		return reads
	}
	n := min(len(reads), max(1, total/wantLeastItems))
	reads = reads[:n]
	each := int32((total + n - 1) / n)
	for i := range reads {
		if reads[i].limit == 0 || reads[i].limit > each {
			reads[i].limit = each
		}
	}
	return reads
}
