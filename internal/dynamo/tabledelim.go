package dynamo

import (
	"context"
	"strings"

	"github.com/dynascope/dynascope/internal/domain"
)

// The delimiter belongs to the table (or index), not to one partition: a
// partition of one key (a country with one store, an index partition of
// one item) has no second key for its delimiter to repeat in, yet its key
// is cut as the rest of the table's are. A level whose own keys tell no
// delimiter, though its names hold one, takes the table's: as told by the
// caller (the configuration, what it read of the table's other
// partitions), else by a key of its own that repeats one (STATUS#DATE#ID,
// at no cost: ownDelimiter), else from a sample of the table's keys (one
// keys-only Scan, billed the whole items it reads). Such a level was read whole (no delimiter: every key
// its own child), so it is cut again from the keys it read, at no cost.

// tableSampleKeys is the sample of a table's keys its delimiter is told
// from: keys small enough for one read unit.
const tableSampleKeys = 25

// SampleDelimiter tells a table's (or index's) delimiter from one
// keys-only Scan page of its sort keys ("": none repeats in them).
func SampleDelimiter(ctx context.Context, c Client, table, index string, key KeySchema) (string, Cost, error) {
	if key.SK == nil || key.SK.Type != domain.TypeS {
		return "", Cost{}, nil // numbers and bytes are never cut by a text delimiter the user did not pick
	}
	page, err := ScanKeysPage(ctx, c, PartitionsRequest{Table: table, Index: index, Key: key, Limit: tableSampleKeys})
	if err != nil {
		return "", page.Cost, err
	}
	var keys []string
	for _, it := range page.Items {
		if k, ok := skText(it[key.SK.Name]); ok {
			keys = append(keys, k)
		}
	}
	d, _ := domain.DetectDelimiter(keys)
	return d, page.Cost, nil
}

// ownDelimiter is the delimiter the level's own keys tell where none
// repeats across two of them, but one repeats within a key
// (STATUS#DATE#ID, a template of its own): held by at least half the keys,
// as DetectDelimiter asks, the strongest first. A customer's PROFILE and
// one order (DELIVERED#2018-01-21T08:26:00#ORD00001) are cut at '#' from
// what the level's read told, where a table sample cost 30 times that
// read. A key holding one alone (STORE#1) tells nothing of its own: the
// table's is sampled.
func ownDelimiter(children []domain.Child) string {
	for _, d := range domain.Delimiters {
		n, twice := 0, false
		for _, ch := range children {
			first, leaf, ok := domain.ChildOf("", ch.Name, d)
			if !ok || leaf {
				continue
			}
			n++
			if _, leaf, ok := domain.ChildOf(first+d, ch.Name, d); ok && !leaf {
				twice = true
			}
		}
		if twice && n*2 >= len(children) {
			return d
		}
	}
	return ""
}

// tableDelimiter is the delimiter a level whose keys told none is cut by
// ("": none): the table's, where some child's name holds it.
func tableDelimiter(ctx context.Context, c Client, r ChildrenRequest, children []domain.Child) (string, Cost, error) {
	holds := func(d string) bool {
		for _, ch := range children {
			if d != "" && strings.Contains(ch.Name, d) {
				return true
			}
		}
		return false
	}
	if r.TableDelim != "" {
		if holds(r.TableDelim) {
			return r.TableDelim, Cost{}, nil
		}
		return "", Cost{}, nil
	}
	any := false
	for _, ch := range children {
		if _, ok := domain.TemplateDelimiter(ch.Name); ok {
			any = true
			break
		}
	}
	if !any {
		return "", Cost{}, nil // the keys really hold no delimiter
	}
	if d := ownDelimiter(children); d != "" {
		return d, Cost{}, nil
	}
	d, cost, err := SampleDelimiter(ctx, c, r.Table, r.Index, r.Key)
	if err != nil || !holds(d) {
		return "", cost, err
	}
	return d, cost, nil
}

// takeTableDelimiter cuts a level whose keys told no delimiter by the
// table's, where its names hold it.
func takeTableDelimiter(ctx context.Context, c Client, r ChildrenRequest, res *ChildrenResult) error {
	if !res.NoDelim || r.Delim != "" || r.NoDelim || len(res.Children) == 0 {
		return nil
	}
	d, cost, err := tableDelimiter(ctx, c, r, res.Children)
	res.Cost = res.Cost.Add(cost)
	if err != nil || d == "" {
		return err
	}
	res.Children, res.Delim, res.NoDelim = resplit(r.Prefix, d, res.Children), d, false
	res.Sample = sampleKeys(nil, res.Sample, r.Prefix, d)
	return nil
}

// resplit cuts the children of a level read whole (every key its own
// child, in key order) by delim.
func resplit(prefix, delim string, children []domain.Child) []domain.Child {
	walk := domain.NewChildWalk(prefix, delim)
	keys := make([]string, len(children))
	for i, ch := range children {
		keys[i] = prefix + ch.Name
	}
	walk.Feed(keys)
	return walk.Children()
}

// cutByTableDelimiter cuts a pass read to its end whose keys told no
// delimiter by the table's, where its names hold it: the counts of the
// keys read whole are added up under the children they fall in.
func (p *CountPass) cutByTableDelimiter(ctx context.Context, c Client) error {
	if p.r.Delim != "" || p.r.NoDelim || !p.Done() {
		return nil
	}
	res := p.Result()
	if res.Delim != "" || len(res.Children) == 0 {
		return nil
	}
	d, cost, err := tableDelimiter(ctx, c, p.r, res.Children)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cost = p.cost.Add(cost)
	if err != nil || d == "" {
		return err
	}
	counts := map[string]int{}
	for name, n := range p.counts {
		if split, _, ok := domain.ChildOf(p.r.Prefix, p.r.Prefix+name, d); ok {
			counts[split] += n
		}
	}
	walk := domain.NewChildWalk(p.r.Prefix, d)
	for _, ch := range resplit(p.r.Prefix, d, res.Children) {
		if ch.IsItem {
			walk.Feed([]string{p.r.Prefix + ch.Name})
		}
		if ch.HasChildren {
			walk.Feed([]string{ch.Prefix})
		}
	}
	p.delim, p.counts = d, counts
	p.stretches = []*stretch{{from: p.r.Prefix, walk: walk, done: true}}
	return nil
}
