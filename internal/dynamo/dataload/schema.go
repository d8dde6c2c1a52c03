package dataload

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// KeyAttr is one key attribute: its name and scalar type (S, N or B).
type KeyAttr struct {
	Name string
	Type types.ScalarAttributeType
}

// Schema is what a table needs before items can go in: its key and, when
// known, its indexes. Table is empty for a schema that applies to any table
// (from --keys).
type Schema struct {
	Table   string
	PK      KeyAttr
	SK      *KeyAttr
	GSIs    []Index
	LSIs    []Index
	Defined map[string]types.ScalarAttributeType // every key attribute of the table and its indexes
}

// Index is a secondary index of a schema.
type Index struct {
	Name       string
	PK         KeyAttr
	SK         *KeyAttr
	Projection types.Projection
}

func scalarType(s string) (types.ScalarAttributeType, bool) {
	switch t := types.ScalarAttributeType(strings.ToUpper(strings.TrimSpace(s))); t {
	case types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB:
		return t, true
	}
	return "", false
}

// ParseKeys reads --keys: "PK:S" or "PK:S,SK:N".
func ParseKeys(s string) (Schema, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 2 || strings.TrimSpace(s) == "" {
		return Schema{}, fmt.Errorf("%q is not NAME:TYPE[,NAME:TYPE]", s)
	}
	var attrs []KeyAttr
	for _, p := range parts {
		name, typ, ok := strings.Cut(strings.TrimSpace(p), ":")
		t, okType := scalarType(typ)
		switch {
		case !ok || name == "":
			return Schema{}, fmt.Errorf("%q is not NAME:TYPE", p)
		case !okType:
			return Schema{}, fmt.Errorf("%q: a key's type is S, N or B", p)
		}
		attrs = append(attrs, KeyAttr{Name: name, Type: t})
	}
	sc := Schema{PK: attrs[0]}
	if len(attrs) == 2 {
		if attrs[1].Name == attrs[0].Name {
			return Schema{}, fmt.Errorf("%q names the same attribute twice", s)
		}
		sc.SK = &attrs[1]
	}
	sc.define()
	return sc, nil
}

func (sc *Schema) define() {
	if sc.Defined == nil {
		sc.Defined = map[string]types.ScalarAttributeType{}
	}
	for _, k := range sc.keyAttrs() {
		sc.Defined[k.Name] = k.Type
	}
	for _, ix := range append(slices.Clone(sc.GSIs), sc.LSIs...) {
		sc.Defined[ix.PK.Name] = ix.PK.Type
		if ix.SK != nil {
			sc.Defined[ix.SK.Name] = ix.SK.Type
		}
	}
}

func (sc *Schema) keyAttrs() []KeyAttr {
	if sc.SK == nil {
		return []KeyAttr{sc.PK}
	}
	return []KeyAttr{sc.PK, *sc.SK}
}

// describeTable is the part of `aws dynamodb describe-table` output a
// schema needs (also accepted: the Table object alone, or create-table's
// input JSON).
type describeTable struct {
	TableName            string
	KeySchema            []keyElem
	AttributeDefinitions []struct{ AttributeName, AttributeType string }
	GlobalSecondaryIndexes,
	LocalSecondaryIndexes []struct {
		IndexName  string
		KeySchema  []keyElem
		Projection *struct {
			ProjectionType   string
			NonKeyAttributes []string
		}
	}
}

type keyElem struct{ AttributeName, KeyType string }

// ParseSchema reads --schema: the JSON `aws dynamodb describe-table` prints.
func ParseSchema(data []byte) (Schema, error) {
	var doc struct {
		Table *describeTable
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return Schema{}, fmt.Errorf("not JSON: %v", jsonErr(err))
	}
	d := doc.Table
	if d == nil {
		d = &describeTable{}
		if err := json.Unmarshal(data, d); err != nil {
			return Schema{}, fmt.Errorf("not JSON: %v", jsonErr(err))
		}
	}
	defined := map[string]types.ScalarAttributeType{}
	for _, a := range d.AttributeDefinitions {
		t, ok := scalarType(a.AttributeType)
		if !ok {
			return Schema{}, fmt.Errorf("attribute %q has type %q: key types are S, N or B", a.AttributeName, a.AttributeType)
		}
		defined[a.AttributeName] = t
	}
	keys := func(where string, ks []keyElem) (KeyAttr, *KeyAttr, error) {
		var pk KeyAttr
		var sk *KeyAttr
		for _, k := range ks {
			t, ok := defined[k.AttributeName]
			if !ok {
				return pk, nil, fmt.Errorf("%s: key %q is not in AttributeDefinitions", where, k.AttributeName)
			}
			switch strings.ToUpper(k.KeyType) {
			case "HASH":
				pk = KeyAttr{k.AttributeName, t}
			case "RANGE":
				sk = &KeyAttr{k.AttributeName, t}
			default:
				return pk, nil, fmt.Errorf("%s: key %q has KeyType %q, not HASH or RANGE", where, k.AttributeName, k.KeyType)
			}
		}
		if pk.Name == "" {
			return pk, nil, fmt.Errorf("%s: no HASH key in KeySchema", where)
		}
		return pk, sk, nil
	}
	pk, sk, err := keys("KeySchema", d.KeySchema)
	if err != nil {
		return Schema{}, err
	}
	sc := Schema{Table: d.TableName, PK: pk, SK: sk}
	for i, list := range [][]Index{nil, nil} {
		src := d.GlobalSecondaryIndexes
		if i == 1 {
			src = d.LocalSecondaryIndexes
		}
		for _, g := range src {
			ipk, isk, err := keys("index "+g.IndexName, g.KeySchema)
			if err != nil {
				return Schema{}, err
			}
			ix := Index{Name: g.IndexName, PK: ipk, SK: isk, Projection: allProjection()}
			if g.Projection != nil && g.Projection.ProjectionType != "" {
				ix.Projection = projection(g.Projection.ProjectionType, g.Projection.NonKeyAttributes)
			}
			list = append(list, ix)
		}
		if i == 0 {
			sc.GSIs = list
		} else {
			sc.LSIs = list
		}
	}
	sc.define()
	return sc, nil
}

func allProjection() types.Projection {
	return types.Projection{ProjectionType: types.ProjectionTypeAll}
}

func projection(kind string, nonKey []string) types.Projection {
	p := types.Projection{ProjectionType: types.ProjectionType(strings.ToUpper(kind))}
	if p.ProjectionType == types.ProjectionTypeInclude {
		p.NonKeyAttributes = nonKey
	}
	return p
}

func keySchema(pk KeyAttr, sk *KeyAttr) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
	if sk != nil {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
	}
	return ks
}

// createInput is the CreateTable request for a table of this schema.
func (sc Schema) createInput(table string) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{TableName: aws.String(table), KeySchema: keySchema(sc.PK, sc.SK), BillingMode: types.BillingModePayPerRequest}
	names := make([]string, 0, len(sc.Defined))
	for n := range sc.Defined {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: sc.Defined[n]})
	}
	for _, g := range sc.GSIs {
		p := g.Projection
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{IndexName: aws.String(g.Name), KeySchema: keySchema(g.PK, g.SK), Projection: &p})
	}
	for _, l := range sc.LSIs {
		p := l.Projection
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{IndexName: aws.String(l.Name), KeySchema: keySchema(l.PK, l.SK), Projection: &p})
	}
	return in
}

// checkKeys says what is wrong with an item's key attributes, if anything.
func (sc *Schema) checkKeys(item map[string]types.AttributeValue) error {
	for _, k := range sc.keyAttrs() {
		v, ok := item[k.Name]
		if !ok {
			return fmt.Errorf("the item has no key attribute %s (%s)", k.Name, k.Type)
		}
		if got := dynamo.TypeOf(v); got != string(k.Type) {
			return fmt.Errorf("key attribute %s is of type %s, the key schema says %s", k.Name, got, k.Type)
		}
		if emptyKey(v) {
			return fmt.Errorf("key attribute %s is empty: DynamoDB keys cannot be", k.Name)
		}
		limit := 1024 // a sort key
		if k.Name == sc.PK.Name {
			limit = 2048
		}
		if n := keyBytes(v); n > limit {
			return fmt.Errorf("key attribute %s is %d bytes: DynamoDB's limit is %d", k.Name, n, limit)
		}
	}
	for name, t := range sc.Defined {
		if v, ok := item[name]; ok && dynamo.TypeOf(v) != string(t) {
			return fmt.Errorf("index key attribute %s is of type %s, the index says %s", name, dynamo.TypeOf(v), t)
		}
	}
	return nil
}

// keyBytes is a key value's size as DynamoDB limits it.
func keyBytes(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	}
	return 0
}

func emptyKey(v types.AttributeValue) bool {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value == ""
	case *types.AttributeValueMemberB:
		return len(v.Value) == 0
	}
	return false
}

// candidates tracks the attributes present in every item with one scalar
// type: what a key schema could be made of, offered when none was given.
type candidates struct {
	seen  int
	attrs map[string]string // name → type, "" once disqualified
}

func (c *candidates) add(item map[string]types.AttributeValue) {
	if c.seen == 0 {
		c.attrs = map[string]string{}
		for k, v := range item {
			if t := dynamo.TypeOf(v); t == "S" || t == "N" || t == "B" {
				c.attrs[k] = t
			}
		}
	} else {
		for k, t := range c.attrs {
			if v, ok := item[k]; !ok || dynamo.TypeOf(v) != t {
				delete(c.attrs, k)
			}
		}
	}
	c.seen++
}

func (c *candidates) String() string {
	names := make([]string, 0, len(c.attrs))
	for k := range c.attrs {
		names = append(names, k+":"+c.attrs[k])
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "no attribute is in every item with one type"
	}
	return "attributes in every item: " + strings.Join(names, ", ")
}
