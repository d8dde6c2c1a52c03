package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
)

// Masked wraps a Client so that what it answers holds stand-ins for the
// masked attributes' values (--mask, mask = [...]) and what it is asked
// has them swapped back for the real values: whatever reads through it
// (the explorer) never holds a masked value, yet its requests, built from
// what it was shown, ask for the real thing. Key attributes are masked
// segment by segment around the table's delimiter, so a hierarchy keeps
// its shape and drilling into ‹m1›# asks for NY#. It is safe for
// concurrent use.
type Masked struct {
	Client Client
	// For is a table's mask (nil: none); Delim its key delimiter ("": #).
	For   func(table string) *domain.Mask
	Delim func(table string) string

	mu   sync.Mutex
	real map[string]types.AttributeValue // stand-in → the whole value it stands for
	keys map[string]map[string]bool      // table → its key attributes (and its indexes'), from DescribeTable
	seen map[string]map[string]bool      // table → masked attributes seen in an item
}

var _ Client = (*Masked)(nil)

var standIn = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`‹m[0-9]+›`) })

// NewMasked wraps c with the masks that for gives each table.
func NewMasked(c Client, for_ func(table string) *domain.Mask, delim func(table string) string) *Masked {
	if delim == nil {
		delim = func(string) string { return "" }
	}
	return &Masked{Client: c, For: for_, Delim: delim, real: map[string]types.AttributeValue{},
		keys: map[string]map[string]bool{}, seen: map[string]map[string]bool{}}
}

func (m *Masked) delim(table string) string {
	if d := m.Delim(table); d != "" {
		return d
	}
	return "#"
}

// standIn is mask's stand-in for text, remembered as standing for v.
func (m *Masked) standIn(mask *domain.Mask, text string, v types.AttributeValue) string {
	s := mask.StandIn(text)
	m.mu.Lock()
	if _, ok := m.real[s]; !ok || v != nil {
		m.real[s] = v
	}
	m.mu.Unlock()
	return s
}

// KeyText is a key value of table's attribute attr as it may be shown:
// masked segment by segment when the mask covers attr. Requests given
// the result ask for value again.
func (m *Masked) KeyText(table, attr, value string) string {
	return m.KeyTextAround(table, attr, value, m.delim(table))
}

// KeyTextAround is KeyText with segments around d (a drill-down's own
// delimiter).
func (m *Masked) KeyTextAround(table, attr, value, d string) string {
	mask := m.For(table)
	if !mask.Whole(attr) || value == "" {
		return value
	}
	if d == "" {
		d = m.delim(table)
	}
	parts := strings.Split(value, d)
	for i, p := range parts {
		if p != "" {
			parts[i] = m.standIn(mask, p, &types.AttributeValueMemberS{Value: p})
		}
	}
	return strings.Join(parts, d)
}

// Masks reports whether table has anything masked.
func (m *Masked) Masks(table string) bool { return m.For(table) != nil }

// Unseen are the masked attributes of table that no item read so far
// held, sorted; nil before any item was read.
func (m *Masked) Unseen(table string) []string {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	seen, ok := m.seen[table]
	if !ok {
		return nil
	}
	var out []string
	for _, a := range m.For(table).Attributes() {
		if !seen[a] {
			out = append(out, a)
		}
	}
	return out
}

// Text is s with every stand-in in it swapped back for its real text.
func (m *Masked) Text(s string) string {
	if !strings.Contains(s, "‹m") {
		return s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return standIn().ReplaceAllStringFunc(s, func(tok string) string {
		if t, ok := textOf(m.real[tok]); ok {
			return t
		}
		return tok
	})
}

// KeyValue is v with its stand-ins swapped back (a whole number or
// binary stand-in back to its own type).
func (m *Masked) KeyValue(v domain.KeyValue) domain.KeyValue {
	if v.Type == domain.TypeB {
		if b := []byte(m.Text(string(v.Bytes))); string(b) != string(v.Bytes) {
			return domain.B(b)
		}
		return v
	}
	if kv, ok := KeyValueOf(m.value(AttributeValue(v))); ok {
		return kv
	}
	return v
}

func textOf(v types.AttributeValue) (string, bool) {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return x.Value, true
	case *types.AttributeValueMemberN:
		return x.Value, true
	case *types.AttributeValueMemberB:
		return string(x.Value), true
	}
	return "", false
}

// value is a request's value with its stand-ins swapped back.
func (m *Masked) value(v types.AttributeValue) types.AttributeValue {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		if !strings.Contains(x.Value, "‹m") {
			return v
		}
		m.mu.Lock()
		whole, ok := m.real[x.Value]
		m.mu.Unlock()
		if ok && whole != nil && standIn().FindString(x.Value) == x.Value {
			return whole
		}
		return &types.AttributeValueMemberS{Value: m.Text(x.Value)}
	case *types.AttributeValueMemberN:
		m.mu.Lock()
		whole, ok := m.real[x.Value]
		m.mu.Unlock()
		if t, isText := textOf(whole); ok && isText {
			return &types.AttributeValueMemberN{Value: t}
		}
	case *types.AttributeValueMemberB:
		if t := m.Text(string(x.Value)); t != string(x.Value) {
			return &types.AttributeValueMemberB{Value: []byte(t)}
		}
	}
	return v
}

func (m *Masked) values(in map[string]types.AttributeValue) map[string]types.AttributeValue {
	if in == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(in))
	for k, v := range in {
		out[k] = m.value(v)
	}
	return out
}

// item is it as it may be shown: masked attributes replaced by stand-ins.
func (m *Masked) item(table string, it Item) Item { return m.itemSeen(table, it, false) }

// itemSeen is item, noting which masked attributes it holds when it is a
// whole item (a keys-only read says nothing of the others).
func (m *Masked) itemSeen(table string, it Item, whole bool) Item {
	mask := m.For(table)
	if mask == nil || it == nil {
		return it
	}
	m.mu.Lock()
	keys := m.keys[table]
	seen := m.seen[table]
	if seen == nil && whole {
		seen = map[string]bool{}
		m.seen[table] = seen
	}
	m.mu.Unlock()
	out := make(Item, len(it))
	for k, v := range it {
		out[k] = v
	}
	for _, attr := range mask.Attributes() {
		v, ok := out[attr]
		if !ok {
			continue
		}
		if whole {
			m.mu.Lock()
			seen[attr] = true
			m.mu.Unlock()
		}
		for _, path := range mask.Paths(attr) {
			if len(path) > 0 {
				v = m.nested(mask, v, path)
				continue
			}
			if s, isS := v.(*types.AttributeValueMemberS); isS && keys[attr] {
				v = &types.AttributeValueMemberS{Value: m.KeyText(table, attr, s.Value)}
				continue
			}
			v = &types.AttributeValueMemberS{Value: m.standIn(mask, plainText(v), v)}
		}
		out[attr] = v
	}
	return out
}

// nested masks path inside v (maps by name, lists element by element),
// copying what it changes.
func (m *Masked) nested(mask *domain.Mask, v types.AttributeValue, path []string) types.AttributeValue {
	switch x := v.(type) {
	case *types.AttributeValueMemberM:
		inner, ok := x.Value[path[0]]
		if !ok {
			return v
		}
		cp := make(map[string]types.AttributeValue, len(x.Value))
		for k, e := range x.Value {
			cp[k] = e
		}
		if len(path) == 1 {
			cp[path[0]] = &types.AttributeValueMemberS{Value: m.standIn(mask, plainText(inner), inner)}
		} else {
			cp[path[0]] = m.nested(mask, inner, path[1:])
		}
		return &types.AttributeValueMemberM{Value: cp}
	case *types.AttributeValueMemberL:
		cp := make([]types.AttributeValue, len(x.Value))
		for i, e := range x.Value {
			cp[i] = m.nested(mask, e, path)
		}
		return &types.AttributeValueMemberL{Value: cp}
	}
	return v
}

// plainText is a value's text for its stand-in, as the headless masking
// spells it: a string itself, a number's digits, anything else its JSON.
func plainText(v types.AttributeValue) string {
	switch x := Plain(v).(type) {
	case nil:
		return "null"
	case string:
		return x
	case json.Number:
		return x.String()
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func (m *Masked) items(table string, its []Item, projection *string) []Item {
	if m.For(table) == nil {
		return its
	}
	out := make([]Item, len(its))
	for i, it := range its {
		out[i] = m.itemSeen(table, it, projection == nil)
	}
	return out
}

func (m *Masked) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return m.Client.ListTables(ctx, in, o...)
}

// DescribeTable learns the table's key attributes, which are masked
// segment by segment.
func (m *Masked) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	out, err := m.Client.DescribeTable(ctx, in, o...)
	if err == nil && out != nil && out.Table != nil {
		m.Learn(tableInfo(out.Table))
	}
	return out, err
}

// Learn notes a table's key attributes (its own and its indexes'), which
// are masked segment by segment, from a description read around the
// masked client (the command line's preflight): without it a key would
// be one stand-in in items and segments in the breadcrumb.
func (m *Masked) Learn(info TableInfo) {
	keys := map[string]bool{}
	add := func(k KeySchema) {
		keys[k.PK.Name] = true
		if k.SK != nil {
			keys[k.SK.Name] = true
		}
	}
	add(info.Key)
	for _, ix := range info.Indexes {
		add(ix.Key)
	}
	m.mu.Lock()
	m.keys[info.Name] = keys
	m.mu.Unlock()
}

func (m *Masked) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	table := aws.ToString(in.TableName)
	if m.For(table) == nil {
		return m.Client.Query(ctx, in, o...)
	}
	real := *in
	real.ExpressionAttributeValues = m.values(in.ExpressionAttributeValues)
	real.ExclusiveStartKey = m.values(in.ExclusiveStartKey)
	out, err := m.Client.Query(ctx, &real, o...)
	if out != nil {
		shown := *out
		shown.Items = m.items(table, out.Items, in.ProjectionExpression)
		shown.LastEvaluatedKey = m.item(table, out.LastEvaluatedKey)
		return &shown, err
	}
	return out, err
}

func (m *Masked) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	table := aws.ToString(in.TableName)
	if m.For(table) == nil {
		return m.Client.Scan(ctx, in, o...)
	}
	real := *in
	real.ExpressionAttributeValues = m.values(in.ExpressionAttributeValues)
	real.ExclusiveStartKey = m.values(in.ExclusiveStartKey)
	out, err := m.Client.Scan(ctx, &real, o...)
	if out != nil {
		shown := *out
		shown.Items = m.items(table, out.Items, in.ProjectionExpression)
		shown.LastEvaluatedKey = m.item(table, out.LastEvaluatedKey)
		return &shown, err
	}
	return out, err
}

func (m *Masked) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	table := aws.ToString(in.TableName)
	if m.For(table) == nil {
		return m.Client.GetItem(ctx, in, o...)
	}
	real := *in
	real.Key = m.values(in.Key)
	out, err := m.Client.GetItem(ctx, &real, o...)
	if out != nil {
		shown := *out
		shown.Item = m.itemSeen(table, out.Item, in.ProjectionExpression == nil)
		return &shown, err
	}
	return out, err
}
