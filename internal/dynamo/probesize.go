package dynamo

// A skip-scan's probe (the read after a jump) is sized to one read unit:
// as many keys as fit 4 KB, so that it costs 0.5 RCU however large the
// items. The drill-down (children.go) and the partitions listing
// (partitions.go) size their probes alike, from what their reads cost.

// maxProbeKeys bounds a probe however small the items.
const maxProbeKeys = 100

// probeSizing is what a skip-scan knows of its probes' size.
type probeSizing struct {
	// Keys is the probe's size: the keys one read unit holds, as far as
	// the reads so far tell.
	Keys int32
	// Sized: a read has cost more than one unit, so Keys is measured, not
	// a lower bound that grows.
	Sized bool
	// Heavy: Keys was sized by an item larger than a read unit (one key a
	// probe), which need not be the level's size: while full probes cost
	// one read unit, they grow (after), as an unsized probe does.
	Heavy bool
}

// after is the sizing once a read of n keys, asked with limit, cost rcu.
// Probes grow (doubling) while a full one still costs one unit, and settle
// at the size that fits one once a read costs more.
func (s probeSizing) after(n int, limit int32, rcu float64) probeSizing {
	if s.Sized && s.Heavy && limit > 0 && n >= int(limit) && rcu <= 0.5 {
		// A full probe of one read unit after a heavy item: the items
		// now read are small (OrderHistory's c0002, a 120 KB order in
		// its first read: 12 requests of one key, 19 RCU, where the
		// full read is one of 15.5).
		s.Keys = min(2*limit, maxProbeKeys)
		return s
	}
	if s.Sized {
		if rcu > 0.5 && n > 0 {
			s.Heavy = false // grown past a read unit: settled
			// Larger items than those that sized it: a probe of one
			// read unit holds fewer of them.
			s.Keys = min(s.Keys, probeSize(n, rcu))
		}
		return s
	}
	s.Keys = probeSize(n, rcu)
	if rcu > 0.5 {
		s.Sized = true
	} else if limit > 0 && n >= int(limit) {
		s.Keys = min(2*limit, maxProbeKeys)
	}
	return s
}

// probeSize is how many keys fit one 4 KB read unit, from a read of n
// keys that cost rcu (0.5 per 4 KB, rounded up: the estimate errs towards
// fewer keys, so a probe never costs more than 0.5).
func probeSize(n int, rcu float64) int32 {
	if rcu <= 0 {
		return int32(min(max(n, 1), maxProbeKeys))
	}
	return int32(min(max(int(float64(n)/(2*rcu)), 1), maxProbeKeys))
}

// measured is the sizing from a read of whole items (n of them, asked with
// limit, costing rcu): as many keys as fit one 4 KB read unit at the
// largest item's size, with a margin because ItemBytes errs low. A probe
// so sized is known to cost one read unit at once, where doubling from a
// first read of keys only pays a read of two units to learn it.
func measured(items []Item, rcu float64) probeSizing {
	largest := 0
	for _, it := range items {
		largest = max(largest, ItemBytes(it))
	}
	if largest == 0 {
		return probeSizing{}
	}
	keys := int32(min(max(readUnitBytes/(largest+largest/8+16), 1), maxProbeKeys))
	if rcu > 0.5 {
		keys = min(keys, probeSize(len(items), rcu))
	}
	return probeSizing{Keys: keys, Sized: true, Heavy: largest > readUnitBytes}
}
