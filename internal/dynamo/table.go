package dynamo

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// KeyAttr is one key attribute with its type.
type KeyAttr struct {
	Name string         `json:"name"`
	Type domain.KeyType `json:"type"`
}

// KeySchema is a partition key and an optional sort key.
type KeySchema struct {
	PK KeyAttr  `json:"partitionKey"`
	SK *KeyAttr `json:"sortKey,omitempty"`
}

// Index is a global or local secondary index.
type Index struct {
	Name             string    `json:"name"`
	Kind             string    `json:"kind"` // "GSI" or "LSI"
	Key              KeySchema `json:"keySchema"`
	Projection       string    `json:"projection"` // ALL, KEYS_ONLY or INCLUDE
	NonKeyAttributes []string  `json:"nonKeyAttributes,omitempty"`
}

// TableInfo is what the explorer needs to know about a table.
type TableInfo struct {
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	Key       KeySchema `json:"keySchema"`
	Indexes   []Index   `json:"indexes"`
	ItemCount int64     `json:"itemCount"`
	SizeBytes int64     `json:"sizeBytes"`
	// Stream is the table's DynamoDB stream (ARN ""): none enabled.
	Stream StreamInfo `json:"stream"`
	// ARN names the table's account and region (empty where the server
	// gives none).
	ARN string `json:"arn,omitempty"`
	// TTL is the table's Time to Live, where it was read (TableTTL).
	TTL *TTLInfo `json:"ttl,omitempty"`
}

// NotHeld are those of names (top-level attributes) that the items of a
// global secondary index do not hold, and what it holds ("its keys
// only", "its keys and a, b"): such an index answers a condition on the
// others as if no item had them. Nil for the table, a local index
// (DynamoDB reads the rest from the table) or an index projecting ALL.
func (t TableInfo) NotHeld(index string, names []string) (missing []string, holds string) {
	return t.notProjected(index, "GSI", names)
}

// notProjected is NotHeld for an index of kind ("GSI" or "LSI").
func (t TableInfo) notProjected(index, kind string, names []string) (missing []string, holds string) {
	var ix *Index
	for i := range t.Indexes {
		if t.Indexes[i].Name == index {
			ix = &t.Indexes[i]
		}
	}
	if ix == nil || ix.Kind != kind || ix.Projection == "ALL" {
		return nil, ""
	}
	held := map[string]bool{}
	for _, k := range []KeySchema{ix.Key, t.Key} {
		held[k.PK.Name] = true
		if k.SK != nil {
			held[k.SK.Name] = true
		}
	}
	for _, n := range ix.NonKeyAttributes {
		held[n] = true
	}
	for _, n := range names {
		if !held[n] && !slices.Contains(missing, n) {
			missing = append(missing, n)
		}
	}
	holds = "its keys only"
	if len(ix.NonKeyAttributes) > 0 {
		holds = "its keys and " + strings.Join(ix.NonKeyAttributes, ", ")
	}
	return missing, holds
}

// NotHeldSaid says in one clause which of the attributes paths name a
// global secondary index does not hold (NotHeld), and what it holds:
// `DriveThru is not in index ByCity (it holds its keys and StreetAddress):
// no item read from it has it`; "" where it holds them all. scan, partiql
// and the explorer's search and statement say it alike.
func (t TableInfo) NotHeldSaid(index string, paths []domain.Path) string {
	shown, verb, them, holds := t.notProjectedSaid(index, "GSI", paths)
	if shown == "" {
		return ""
	}
	return fmt.Sprintf("%s %s not in index %s (it holds %s): no item read from it has %s", shown, verb, index, holds, them)
}

// NotFetchedSaid says in one clause which of the attributes paths name a
// local secondary index does not hold, where it projects less than ALL:
// DynamoDB reads those from the table, item by item and each read billed
// apart, where a filter or projection names them; dynascope's reads do
// not (a budgeted read asks for whole index items and filters them
// itself), so a statement or filter naming them is refused, saying so,
// rather than answered as if no item had them. "" where it holds them all.
func (t TableInfo) NotFetchedSaid(index string, paths []domain.Path) string {
	shown, verb, them, holds := t.notProjectedSaid(index, "LSI", paths)
	if shown == "" {
		return ""
	}
	return fmt.Sprintf("%s %s not in local index %s (it holds %s): DynamoDB would read %s from the table item by item, each read billed apart, which dynascope does not",
		shown, verb, index, holds, them)
}

// notProjectedSaid is what an index of kind does not hold of the
// top-level attributes paths name, written for a sentence ("" where it
// holds them all): the names, is or are, it or them, and what it holds.
func (t TableInfo) notProjectedSaid(index, kind string, paths []domain.Path) (shown, verb, them, holds string) {
	var names []string
	for _, p := range paths {
		if len(p) > 0 {
			names = append(names, p[0].Name)
		}
	}
	missing, holds := t.notProjected(index, kind, names)
	if len(missing) == 0 {
		return "", "", "", ""
	}
	written := make([]string, len(missing))
	for i, n := range missing {
		written[i] = domain.NameText(n)
	}
	verb, them = "is", "it"
	if len(missing) > 1 {
		verb, them = "are", "them"
	}
	return strings.Join(written, ", "), verb, them, holds
}

// NotFetchedError is a search of a local secondary index refused for
// naming attributes it does not hold (NotFetchedSaid), before any read.
type NotFetchedError struct{ Said string }

func (e *NotFetchedError) Error() string { return e.Said }

// Account is the AWS account in the table's ARN ("" where unknown).
func (t TableInfo) Account() string {
	parts := strings.Split(t.ARN, ":")
	if len(parts) < 6 || parts[0] != "arn" {
		return ""
	}
	return parts[4]
}

// KeyFor returns the key schema of the base table (index "") or of the named
// index.
func (t TableInfo) KeyFor(index string) (KeySchema, error) {
	if index == "" {
		return t.Key, nil
	}
	for _, ix := range t.Indexes {
		if ix.Name == index {
			return ix.Key, nil
		}
	}
	return KeySchema{}, fmt.Errorf("table %s has no index %q", t.Name, index)
}

// MaxTables bounds the tables ListTables may list: an account holds at
// most 10,000 a region unless AWS raises it; a server listing more is
// not DynamoDB.
const MaxTables = 100_000

// ListTables returns every table name, following ListTables pages. A
// cursor (LastEvaluatedTableName) that does not move forward, as
// DynamoDB's always does (names come in order), ends it with one error.
func ListTables(ctx context.Context, c Client) ([]string, Cost, error) {
	var names []string
	cost, err := ListTablePages(ctx, c, 0, func(page []string, _ Cost) bool {
		names = append(names, page...)
		return true
	})
	return names, cost, err
}

// ListTablePages hands on each page of table names as it arrives, with
// the cost so far, so that a list can show its first screen after the
// first page (300 tables are three pages read one after another: the
// next page's start is the name this one ends with). limit is the names a
// page (1–100; 0: DynamoDB's 100); each returning false stops it.
func ListTablePages(ctx context.Context, c Client, limit int32, each func(names []string, cost Cost) bool) (Cost, error) {
	var cost Cost
	var start *string
	listed := 0
	for {
		in := &dynamodb.ListTablesInput{ExclusiveStartTableName: start}
		if limit > 0 {
			in.Limit = aws.Int32(limit)
		}
		t0 := time.Now()
		out, err := c.ListTables(ctx, in)
		cost = cost.Add(Cost{Requests: 1, Latency: time.Since(t0)})
		if err != nil {
			return cost, Explain("list tables", err)
		}
		listed += len(out.TableNames)
		if !each(out.TableNames, cost) || out.LastEvaluatedTableName == nil {
			return cost, nil
		}
		if err := checkTableCursor(start, out.LastEvaluatedTableName, listed); err != nil {
			return cost, err
		}
		start = out.LastEvaluatedTableName
	}
}

// ListTablesPage reads the page of table names after start ("" from the
// first; limit names, 0 for DynamoDB's 100), listed names having come
// before it: the names, and where the
// next page starts ("" at the list's end). A cursor that does not move
// past start, or a listing past MaxTables, is refused as ListTablePages
// refuses it. The explorer reads its table list this way, a command a
// page, so that the first screen shows after the first page.
func ListTablesPage(ctx context.Context, c Client, start string, limit int32, listed int) (names []string, next string, cost Cost, err error) {
	in := &dynamodb.ListTablesInput{}
	if limit > 0 {
		in.Limit = aws.Int32(limit)
	}
	var from *string
	if start != "" {
		from = aws.String(start)
		in.ExclusiveStartTableName = from
	}
	t0 := time.Now()
	out, err := c.ListTables(ctx, in)
	cost = Cost{Requests: 1, Latency: time.Since(t0)}
	if err != nil {
		return nil, "", cost, Explain("list tables", err)
	}
	if out.LastEvaluatedTableName == nil {
		return out.TableNames, "", cost, nil
	}
	if err := checkTableCursor(from, out.LastEvaluatedTableName, listed+len(out.TableNames)); err != nil {
		return out.TableNames, "", cost, err
	}
	if *out.LastEvaluatedTableName == "" {
		return out.TableNames, "", cost, nil
	}
	return out.TableNames, *out.LastEvaluatedTableName, cost, nil
}

// checkTableCursor refuses a ListTables page whose cursor, next, is not
// past where it started, or a listing past MaxTables.
func checkTableCursor(start, next *string, listed int) error {
	switch {
	case start != nil && *next == *start:
		return cursorFailure("list tables", &CursorError{Name: "LastEvaluatedTableName"})
	case start != nil && *next < *start:
		return cursorFailure("list tables", &CursorError{Backwards: true, Name: "LastEvaluatedTableName"})
	case listed > MaxTables:
		return &Error{Op: "list tables", Kind: KindOther, Msg: fmt.Sprintf("the server listed more than %d tables", MaxTables),
			Hint: "DynamoDB never does this: check --endpoint-url, or what stands between you and DynamoDB"}
	}
	return nil
}

// DescribeTable returns the table's key schema, indexes and size.
func DescribeTable(ctx context.Context, c Client, name string) (TableInfo, Cost, error) {
	t0 := time.Now()
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	cost := Cost{Requests: 1, Latency: time.Since(t0)}
	if err != nil {
		return TableInfo{}, cost, Explain("describe table "+name, err)
	}
	return tableInfo(out.Table), cost, nil
}

func tableInfo(d *types.TableDescription) TableInfo {
	types := map[string]domain.KeyType{}
	for _, a := range d.AttributeDefinitions {
		types[aws.ToString(a.AttributeName)] = domain.KeyType(a.AttributeType)
	}
	info := TableInfo{
		Name:      aws.ToString(d.TableName),
		Status:    string(d.TableStatus),
		Key:       keySchema(d.KeySchema, types),
		ItemCount: aws.ToInt64(d.ItemCount),
		SizeBytes: aws.ToInt64(d.TableSizeBytes),
		Indexes:   []Index{},
		ARN:       aws.ToString(d.TableArn),
	}
	for _, g := range d.GlobalSecondaryIndexes {
		info.Indexes = append(info.Indexes, index(aws.ToString(g.IndexName), "GSI", g.KeySchema, g.Projection, types))
	}
	for _, l := range d.LocalSecondaryIndexes {
		info.Indexes = append(info.Indexes, index(aws.ToString(l.IndexName), "LSI", l.KeySchema, l.Projection, types))
	}
	sort.Slice(info.Indexes, func(i, j int) bool { return info.Indexes[i].Name < info.Indexes[j].Name })
	if s := d.StreamSpecification; s != nil && aws.ToBool(s.StreamEnabled) && aws.ToString(d.LatestStreamArn) != "" {
		info.Stream = StreamInfo{ARN: aws.ToString(d.LatestStreamArn), View: string(s.StreamViewType), Label: aws.ToString(d.LatestStreamLabel)}
	}
	return info
}

func keySchema(ks []types.KeySchemaElement, attrTypes map[string]domain.KeyType) KeySchema {
	var s KeySchema
	for _, k := range ks {
		a := KeyAttr{Name: aws.ToString(k.AttributeName), Type: attrTypes[aws.ToString(k.AttributeName)]}
		if k.KeyType == types.KeyTypeHash {
			s.PK = a
		} else {
			s.SK = &a
		}
	}
	return s
}

func index(name, kind string, ks []types.KeySchemaElement, p *types.Projection, attrTypes map[string]domain.KeyType) Index {
	ix := Index{Name: name, Kind: kind, Key: keySchema(ks, attrTypes)}
	if p != nil {
		ix.Projection = string(p.ProjectionType)
		ix.NonKeyAttributes = p.NonKeyAttributes
	}
	return ix
}
