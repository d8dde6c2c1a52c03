package dynamo

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// Item is one DynamoDB item as the SDK returns it.
type Item = map[string]types.AttributeValue

// Page is one response's worth of items, with where to continue from.
type Page struct {
	Items   []Item
	LastKey Item // nil when there is nothing more
	Scanned int  // items read by DynamoDB (before any filter)
	Count   int  // items matched (with Select COUNT, there are no Items)
	Cost    Cost
	// JumpRefused: the request's made-up start key was refused and the
	// page read on from the last real one instead (partitions).
	JumpRefused bool
}

// More reports whether another page follows.
func (p Page) More() bool { return len(p.LastKey) > 0 }

// PageRequest says which query to run and from where.
type PageRequest struct {
	Query domain.KeyQuery
	Start Item  // ExclusiveStartKey; nil for the first page
	Limit int32 // 0: let DynamoDB fill up to 1 MB
	// KeysOnly projects the key attributes named in Query (and Table's keys
	// when querying an index, which LastEvaluatedKey needs).
	KeysOnly  bool
	TableKeys *KeySchema
	// Keep, when not nil, is which items read the page holds: a time
	// range over keys in several UTC offsets is read wider than asked,
	// and the items outside it are read (billed, and counted in Scanned)
	// but not returned, as a filter's are.
	Keep func(Item) bool
}

// AttributeValue converts a model key value to the SDK's form.
func AttributeValue(v domain.KeyValue) types.AttributeValue {
	switch v.Type {
	case domain.TypeN:
		return &types.AttributeValueMemberN{Value: v.Text}
	case domain.TypeB:
		return &types.AttributeValueMemberB{Value: v.Bytes}
	default:
		return &types.AttributeValueMemberS{Value: v.Text}
	}
}

// KeyValueOf converts a scalar attribute value to a model key value; ok is
// false for non-key types.
func KeyValueOf(av types.AttributeValue) (domain.KeyValue, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return domain.S(v.Value), true
	case *types.AttributeValueMemberN:
		return domain.N(v.Value), true
	case *types.AttributeValueMemberB:
		return domain.B(v.Value), true
	}
	return domain.KeyValue{}, false
}

// rawValue lets the expression builder take an attribute value as it is.
type rawValue struct{ av types.AttributeValue }

func (r rawValue) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) { return r.av, nil }

// KeyCondition builds q's key condition with the SDK's expression builder:
// names and values become placeholders, never pasted text.
func KeyCondition(q domain.KeyQuery) expression.KeyConditionBuilder {
	pk := expression.Key(q.PKName).Equal(expression.Value(rawValue{AttributeValue(q.PK)}))
	sk := expression.Key(q.SKName)
	a := expression.Value(rawValue{AttributeValue(q.SK.A)})
	var c expression.KeyConditionBuilder
	switch q.SK.Op {
	case domain.SKEq:
		c = sk.Equal(a)
	case domain.SKLt:
		c = sk.LessThan(a)
	case domain.SKLe:
		c = sk.LessThanEqual(a)
	case domain.SKGt:
		c = sk.GreaterThan(a)
	case domain.SKGe:
		c = sk.GreaterThanEqual(a)
	case domain.SKBetween:
		c = sk.Between(a, expression.Value(rawValue{AttributeValue(q.SK.B)}))
	case domain.SKBeginsWith:
		c = sk.BeginsWith(q.SK.A.Text)
		if q.SK.A.Type == domain.TypeB {
			// The builder takes begins_with's operand as a string: mark it,
			// and QueryInput sends the marked value as the binary it is.
			c = sk.BeginsWith(binaryOperand + base64.StdEncoding.EncodeToString(q.SK.A.Bytes))
		}
	default:
		return pk
	}
	return pk.And(c)
}

// binaryOperand marks a binary begins_with operand that the expression
// builder holds as a string (no key or typed value starts with NUL and
// this text).
const binaryOperand = "\x00dynascope binary operand:"

// binaryOperands turns the marked operands back into the binaries they
// stand for.
func binaryOperands(values map[string]types.AttributeValue) map[string]types.AttributeValue {
	for k, v := range values {
		if s, ok := v.(*types.AttributeValueMemberS); ok && strings.HasPrefix(s.Value, binaryOperand) {
			b, _ := base64.StdEncoding.DecodeString(s.Value[len(binaryOperand):])
			values[k] = &types.AttributeValueMemberB{Value: b}
		}
	}
	return values
}

// QueryInput builds the Query request for r, projecting the attributes
// named in proj (nil: whole items).
func QueryInput(r PageRequest, proj []string) (*dynamodb.QueryInput, error) {
	b := expression.NewBuilder().WithKeyCondition(KeyCondition(r.Query))
	if r.Query.Filter != nil {
		cond, err := FilterCondition(r.Query.Filter)
		if err != nil {
			return nil, Errorf("filter", KindValidation, "see the filter syntax in dynascope items --help", "%v", err)
		}
		b = b.WithFilter(cond)
	}
	expr, err := b.Build()
	if err != nil {
		return nil, Errorf("build query", KindValidation, "check the key values", "%v", err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(r.Query.Table),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  unescapeNames(expr.Names()),
		ExpressionAttributeValues: binaryOperands(expr.Values()),
		FilterExpression:          expr.Filter(),
		ScanIndexForward:          aws.Bool(!r.Query.Reverse),
		ExclusiveStartKey:         r.Start,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
	}
	in.ProjectionExpression, in.ExpressionAttributeNames = Projection(proj, in.ExpressionAttributeNames)
	if r.Query.Index != "" {
		in.IndexName = aws.String(r.Query.Index)
	}
	if r.Limit > 0 {
		in.Limit = aws.Int32(r.Limit)
	}
	return in, nil
}

// Projection is a ProjectionExpression of top-level attributes, each named
// once (an index whose key reuses a table key attribute would otherwise
// name it twice, which DynamoDB rejects: "Two document paths overlap") and
// each through a placeholder of its own, added to names. The SDK's
// expression.Name reads "a.b" and "s[0]" as document paths, and
// NameNoDotSplit still reads a trailing "[0]" as a list index, so neither
// can carry an attribute named that way; a placeholder always can. The
// placeholders (#p0, #p1, …) cannot collide with the builder's (#0, #1, …).
func Projection(attrs []string, names map[string]string) (*string, map[string]string) {
	if len(attrs) == 0 {
		return nil, names
	}
	if names == nil {
		names = map[string]string{}
	}
	seen := map[string]bool{}
	var parts []string
	for _, a := range attrs {
		if a == "" || seen[a] {
			continue
		}
		seen[a] = true
		ph := fmt.Sprintf("#p%d", len(parts))
		names[ph] = a
		parts = append(parts, ph)
	}
	return aws.String(strings.Join(parts, ", ")), names
}

// keysOnly is the projection of a keys-only read: the keys of the table or
// index queried, and the table's own keys on an index (which
// LastEvaluatedKey needs), each once.
func keysOnly(r PageRequest) []string {
	names := []string{r.Query.PKName, r.Query.SKName}
	if r.TableKeys != nil {
		names = append(names, r.TableKeys.PK.Name)
		if r.TableKeys.SK != nil {
			names = append(names, r.TableKeys.SK.Name)
		}
	}
	return names
}

// QueryPage runs one Query request: one page of a partition in sort-key
// order (reversed when r.Query.Reverse).
func QueryPage(ctx context.Context, c Client, r PageRequest) (Page, error) {
	var proj []string
	if r.KeysOnly {
		proj = keysOnly(r)
	}
	in, err := QueryInput(r, proj)
	if err != nil {
		return Page{}, err
	}
	t0 := time.Now()
	out, err := c.Query(ctx, in)
	cost := Cost{Requests: 1, Latency: time.Since(t0)}
	if err != nil {
		return Page{Cost: cost}, Explain("query "+r.Query.Table, err)
	}
	cost.RCU = capacityUnits(out.ConsumedCapacity)
	cost.billRead(out.Items, aws.ToBool(in.ConsistentRead))
	if err := checkCursor(r.Start, out.LastEvaluatedKey, r.Query.SKName, r.Query.Reverse); err != nil {
		return Page{Cost: cost}, cursorFailure("query "+r.Query.Table, err)
	}
	if err := checkPartition(r.Query, out.Items); err != nil {
		return Page{Cost: cost}, err
	}
	if err := checkItems(out.Items...); err != nil {
		return Page{Cost: cost}, Explain("query "+r.Query.Table, err)
	}
	items := out.Items
	if r.Keep != nil {
		items = nil
		for _, it := range out.Items {
			if r.Keep(it) {
				items = append(items, it)
			}
		}
	}
	return Page{Items: items, LastKey: out.LastEvaluatedKey, Scanned: int(out.ScannedCount), Count: len(items), Cost: cost}, nil
}

// checkPartition refuses a Query answer holding an item of another
// partition than the one asked for: shown, it would pass for one of this
// partition's. (A value of another type, or a masked stand-in, is not
// compared.) The message never holds either key's value (it may be
// masked).
func checkPartition(q domain.KeyQuery, items []Item) error {
	want := AttributeValue(q.PK)
	for i, it := range items {
		// A masked read shows stand-ins, which do not compare: only a
		// value that can be told apart from the one asked for is.
		c, comparable := compareKeyValues(want, it[q.PKName])
		if !comparable || c == 0 {
			continue
		}
		return &Error{Op: "query " + q.Table, Kind: KindOther,
			Msg:  fmt.Sprintf("the server's answer holds an item of another partition (item %d's %s is not the one asked for): not a DynamoDB answer", i+1, q.PKName),
			Hint: "DynamoDB never does this: check --endpoint-url, or what stands between you and DynamoDB"}
	}
	return nil
}

// CountPage runs one Select COUNT Query: DynamoDB still reads (and
// charges for) every item it counts, but sends none back.
func CountPage(ctx context.Context, c Client, r PageRequest) (Page, error) {
	in, err := QueryInput(r, nil)
	if err != nil {
		return Page{}, err
	}
	in.Select = types.SelectCount
	t0 := time.Now()
	out, err := c.Query(ctx, in)
	cost := Cost{Requests: 1, Latency: time.Since(t0)}
	if err != nil {
		return Page{Cost: cost}, Explain("count in "+r.Query.Table, err)
	}
	cost.RCU = capacityUnits(out.ConsumedCapacity)
	cost.billRead(nil, aws.ToBool(in.ConsistentRead))
	if err := checkCursor(r.Start, out.LastEvaluatedKey, r.Query.SKName, r.Query.Reverse); err != nil {
		return Page{Cost: cost}, cursorFailure("count in "+r.Query.Table, err)
	}
	return Page{LastKey: out.LastEvaluatedKey, Scanned: int(out.ScannedCount), Count: int(out.Count), Cost: cost}, nil
}

// PartitionsRequest asks for one page of a keys-only Scan.
type PartitionsRequest struct {
	Table string
	Index string
	Key   KeySchema // of the table or index scanned
	// TableKeys are the table's keys when Index is set: a start key on an
	// index holds them too, so a jump past an index partition makes them up.
	TableKeys *KeySchema
	Start     Item
	Limit     int32
	// Resume is the last start key DynamoDB gave when Start is made up (a
	// jump): where to read on should the jump be refused.
	Resume Item
	NoJump bool // a jump was refused: read on in plain pages
	// probe is the size of a read after a jump: one read unit, as far as
	// the reads so far tell.
	probe probeSizing
	// Segment of TotalSegments: the read is one segment of a parallel
	// Scan (TotalSegments 0: of the whole table or index).
	Segment, TotalSegments int32
	// Segments are the open segments of a listing read in parallel
	// (partitionsegments.go): each step reads each of them once, at the
	// same time. The request itself is then no read.
	Segments []PartitionsRequest
	// before is what the listing delivered before it split into segments,
	// which the segments' reads come across again.
	before *readBefore
	// opening: a segment's first read, of one key (splitSegments): the
	// partition it finds may be one the listing read before it split,
	// whose keys a probe's worth would read again.
	opening bool
	// splitAfter: the listing's first jump, sent one after the first
	// read. The listing splits into segments once it answers with more to
	// read, not before (a table of one large partition ends there).
	splitAfter bool
	// Rows, where more than 0, is how many more partitions the reader
	// wants listed (what a screen lacks): a bulk page is cut to the keys
	// that many hold at the mean of those seen whole (perPartition), not
	// a 1,000 keys whose items a Scan bills whole however few are shown.
	Rows int
	// perPartition is the keys the partitions seen whole held on average
	// (0: none seen), which sizes a bulk page to Rows.
	perPartition int32
	// SizeBytes and ItemCount are DescribeTable's figures for what is
	// scanned (0: not reported, as dynalite reports none): with them the
	// listing prices what it has not read yet at its own mean item, not
	// at the mean of the items it read (partitions.go, restSizing).
	SizeBytes, ItemCount int64
	// readKeys and readRCU are what the listing's reads before this one
	// held and cost, taken off SizeBytes and ItemCount.
	readKeys int64
	readRCU  float64
	// heavyRest: those figures priced the unread items markedly heavier
	// than the reads measured (restSizing).
	heavyRest bool
}

// ScanKeysPage runs one keys-only Scan request (of r's segment, if it is
// one; a request of open Segments is read by ReadPartitions). Callers
// collapse the keys to distinct partitions; the page keeps every key so
// paging stays exact.
func ScanKeysPage(ctx context.Context, c Client, r PartitionsRequest) (Page, error) {
	attrs := []string{r.Key.PK.Name}
	if r.Key.SK != nil {
		attrs = append(attrs, r.Key.SK.Name)
	}
	in := &dynamodb.ScanInput{
		TableName:              aws.String(r.Table),
		ExclusiveStartKey:      r.Start,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	in.ProjectionExpression, in.ExpressionAttributeNames = Projection(attrs, nil)
	if r.Index != "" {
		in.IndexName = aws.String(r.Index)
	}
	if r.Limit > 0 {
		in.Limit = aws.Int32(r.Limit)
	}
	if r.TotalSegments > 0 {
		in.Segment, in.TotalSegments = aws.Int32(r.Segment), aws.Int32(r.TotalSegments)
	}
	t0 := time.Now()
	out, err := c.Scan(ctx, in)
	cost := Cost{Requests: 1, Latency: time.Since(t0)}
	refused := false
	if err != nil && r.Resume != nil && startKeyRefused(err) {
		// A made-up start key refused: read on from the last real one.
		refused, in.ExclusiveStartKey = true, r.Resume
		out, err = c.Scan(ctx, in)
		cost.Requests++
		cost.Latency = time.Since(t0)
	}
	if err != nil {
		return Page{Cost: cost}, Explain("scan "+r.Table, err)
	}
	cost.RCU = capacityUnits(out.ConsumedCapacity)
	cost.billRead(out.Items, false)
	// A scan's order is the hash's: only a repeat can be told, or a
	// cursor back in the partition a jump has just passed.
	err = checkCursor(in.ExclusiveStartKey, out.LastEvaluatedKey, "", false)
	if err == nil && r.Resume != nil && !refused && len(out.LastEvaluatedKey) > 0 {
		if c, ok := compareKeyValues(out.LastEvaluatedKey[r.Key.PK.Name], r.Resume[r.Key.PK.Name]); ok && c == 0 {
			err = &CursorError{Backwards: true}
		}
	}
	if err != nil {
		return Page{Cost: cost}, cursorFailure("scan "+r.Table, err)
	}
	return Page{Items: out.Items, LastKey: out.LastEvaluatedKey, Scanned: int(out.ScannedCount), Cost: cost, JumpRefused: refused}, nil
}

// GetItem reads one item by its full key. A missing item is (nil, cost, nil).
func GetItem(ctx context.Context, c Client, table string, key Item) (Item, Cost, error) {
	t0 := time.Now()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	cost := Cost{Requests: 1, Latency: time.Since(t0)}
	if err != nil {
		return nil, cost, Explain("get item from "+table, err)
	}
	cost.RCU = capacityUnits(out.ConsumedCapacity)
	cost.billRead(itemsOf(out.Item), false)
	return out.Item, cost, nil
}

// Page sizes for lists a person reads: the first page asks for the rows
// a screen shows and a few more (a 1 MB page of ~350-byte items costs ~125
// RCU to show 35 rows), and each later page, read as the user moves,
// doubles, until DynamoDB's 1 MB bound is the smaller one. Headless
// streaming asks for full pages (Limit 0).
const (
	// screenSpare are the rows read past the screen's last, so a move
	// of a few rows needs no read.
	screenSpare = 4
	// minFirstPage is the first page of a screen not yet measured.
	minFirstPage = 20
	// maxGrownLimit is where growth stops counting: past it, a page is
	// bounded by its 1 MB anyway, so Limit is dropped.
	maxGrownLimit = 16384
)

// ScreenLimit is the Limit of a list's first page when screenRows rows
// show at once.
func ScreenLimit(screenRows int) int32 {
	if screenRows <= 0 {
		return minFirstPage
	}
	return int32(min(screenRows+screenSpare, maxGrownLimit))
}

// RowsLimit is the Limit of a page that must bring rows rows (keys typed
// ahead of the reads): rows, or 0 (a full 1 MB page) past maxGrownLimit.
func RowsLimit(rows int) int32 {
	if rows <= 0 || rows > maxGrownLimit {
		return 0
	}
	return int32(rows)
}

// PageRows is about how many items of itemBytes each one Query returns
// at most, DynamoDB ending a page at 1 MB; 0 when no size is known.
func PageRows(itemBytes int) int {
	if itemBytes <= 0 {
		return 0
	}
	return pageBytes / itemBytes
}

// GrowLimit is the Limit of the page after one read with limit: double,
// or 0 (a full 1 MB page) once the page was cut by its size rather than
// its Limit, or the doubling passes maxGrownLimit.
func GrowLimit(limit int32, p Page) int32 {
	if limit <= 0 || (p.More() && p.Scanned < int(limit)) || 2*limit > maxGrownLimit {
		return 0
	}
	return 2 * limit
}
