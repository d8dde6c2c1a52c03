package memory

import (
	"encoding/base64"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Request validation, in the order DynamoDB applies it and with its
// messages (as dynalite, the reference the conformance suite holds this
// backend to, reproduces them): the request's shape and expressions first,
// before the table is looked up; then what needs the table's schema.

// maxExpressionBytes is DynamoDB's limit on each expression, measured on
// the text as sent. dynalite does not enforce it; DynamoDB does.
const maxExpressionBytes = 4096

var (
	namePlaceholder  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#[0-9a-zA-Z_]+$`) })
	valuePlaceholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^:[0-9a-zA-Z_]+$`) })
)

// expressions is what a Query or Scan sends in expression form.
type expressions struct {
	keyCond, filter, projection *string
	names                       map[string]string
	values                      map[string]types.AttributeValue
	start                       map[string]types.AttributeValue // ExclusiveStartKey
	query                       bool
	seg                         segments // a Scan's
}

// startKeyBare are the value errors DynamoDB reports in a start key
// without saying it is the start key.
var startKeyBare = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`contains duplicates|number set|numeric value|significant digits|number with magnitude`)
})

// bigNumber is the syntax of a number DynamoDB accepts.
var bigNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`) })

// checkValue is DynamoDB's check of an attribute value sent in a request
// (an expression value, a key): numbers that parse and fit (38 significant
// digits, magnitudes 1e-130 to 1e126), non-empty sets without duplicates,
// NULL only as true. It returns the message, or "".
func checkValue(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		return checkNumber(v.Value)
	case *types.AttributeValueMemberNULL:
		if !v.Value {
			return "One or more parameter values were invalid: Null attribute value types must have the value of true"
		}
	case *types.AttributeValueMemberSS:
		if len(v.Value) == 0 {
			return "One or more parameter values were invalid: An string set  may not be empty"
		}
		if dupString(v.Value, func(s string) string { return s }) {
			return "One or more parameter values were invalid: Input collection [" + strings.Join(v.Value, ", ") + "] contains duplicates."
		}
	case *types.AttributeValueMemberNS:
		if len(v.Value) == 0 {
			return "One or more parameter values were invalid: An number set  may not be empty"
		}
		for _, x := range v.Value {
			if msg := checkNumber(x); msg != "" {
				return msg
			}
		}
		if dupString(v.Value, func(s string) string { d, _ := parseDecimal(s); return d.String() }) {
			return "Input collection contains duplicates"
		}
	case *types.AttributeValueMemberBS:
		if len(v.Value) == 0 {
			return "One or more parameter values were invalid: Binary sets should not be empty"
		}
		enc := make([]string, len(v.Value))
		for i, b := range v.Value {
			enc[i] = base64.StdEncoding.EncodeToString(b)
		}
		if dupString(enc, func(s string) string { return s }) {
			return "One or more parameter values were invalid: Input collection [" + strings.Join(enc, ", ") + "]of type BS contains duplicates."
		}
	case *types.AttributeValueMemberM:
		for _, k := range sortedKeys(v.Value) {
			if msg := checkValue(v.Value[k]); msg != "" {
				return msg
			}
		}
	case *types.AttributeValueMemberL:
		for _, x := range v.Value {
			if msg := checkValue(x); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func checkNumber(s string) string {
	if s == "" {
		return "The parameter cannot be converted to a numeric value"
	}
	d, ok := parseDecimal(s)
	if !ok || !bigNumber().MatchString(s) {
		return "The parameter cannot be converted to a numeric value: " + s
	}
	if d.digits == "" {
		return ""
	}
	switch e := d.exp - 1; {
	case e > 125:
		return "Number overflow. Attempting to store a number with magnitude larger than supported range"
	case e < -130:
		return "Number underflow. Attempting to store a number with magnitude smaller than supported range"
	case len(d.digits) > 38:
		return "Attempting to store more than 38 significant digits in a Number"
	}
	return ""
}

func dupString(xs []string, norm func(string) string) bool {
	seen := map[string]bool{}
	for _, x := range xs {
		k := norm(x)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// parsed is the expressions once validated.
type parsed struct {
	keyCond    *node
	filter     *node
	projection []path
}

func (e expressions) parse() (parsed, error) {
	var out parsed
	for _, check := range []func() error{e.checkUsed, e.checkStart, e.seg.check, e.checkKeyCondition, e.checkNames, e.checkValues} {
		if err := check(); err != nil {
			return out, err
		}
	}
	used := map[string]bool{}
	if err := e.parseEach(&out, used); err != nil {
		return out, err
	}
	if unused := unusedKeys(e.names, used); unused != "" {
		return out, validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {" + unused + "}")
	}
	if unused := unusedKeys(e.values, used); unused != "" {
		return out, validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {" + unused + "}")
	}
	return out, nil
}

// checkUsed refuses placeholders sent without an expression to use them.
func (e expressions) checkUsed() error {
	if e.names != nil && e.keyCond == nil && e.filter == nil && e.projection == nil {
		return validation("ExpressionAttributeNames can only be specified when using expressions")
	}
	if e.values != nil && e.keyCond == nil && e.filter == nil {
		if e.query {
			return validation("ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null")
		}
		return validation("ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null")
	}
	return nil
}

func (e expressions) checkStart() error {
	for _, k := range sortedKeys(e.start) {
		if msg := checkValue(e.start[k]); msg != "" {
			if !startKeyBare().MatchString(msg) {
				msg = "The provided starting key is invalid: " + msg
			}
			return validation(msg)
		}
	}
	return nil
}

func (e expressions) checkKeyCondition() error {
	if e.query && e.keyCond == nil {
		return validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	return nil
}

func (e expressions) checkNames() error {
	if e.names == nil {
		return nil
	}
	if len(e.names) == 0 {
		return validation("ExpressionAttributeNames must not be empty")
	}
	for _, k := range sortedKeys(e.names) {
		if !namePlaceholder().MatchString(k) {
			return validation(`ExpressionAttributeNames contains invalid key: Syntax error; key: "` + k + `"`)
		}
	}
	return nil
}

func (e expressions) checkValues() error {
	if e.values == nil {
		return nil
	}
	if len(e.values) == 0 {
		return validation("ExpressionAttributeValues must not be empty")
	}
	for _, k := range sortedKeys(e.values) {
		if !valuePlaceholder().MatchString(k) {
			return validation(`ExpressionAttributeValues contains invalid key: Syntax error; key: "` + k + `"`)
		}
	}
	for _, k := range sortedKeys(e.values) {
		if msg := checkValue(e.values[k]); msg != "" {
			return validation("ExpressionAttributeValues contains invalid value: " + msg + " for key " + k)
		}
	}
	return nil
}

// parseEach parses the key condition, filter and projection, in the
// order DynamoDB reports their faults, noting the placeholders used.
func (e expressions) parseEach(out *parsed, used map[string]bool) error {
	var err error
	for _, x := range []struct {
		name string
		text *string
	}{{"KeyConditionExpression", e.keyCond}, {"FilterExpression", e.filter}, {"ProjectionExpression", e.projection}} {
		if x.text == nil {
			continue
		}
		if *x.text == "" {
			return validation("Invalid " + x.name + ": The expression can not be empty;")
		}
		if n := len(*x.text); n > maxExpressionBytes {
			return validation("Invalid " + x.name + ": Expression size has exceeded the maximum allowed size; expression size: " + strconv.Itoa(n))
		}
		switch x.name {
		case "KeyConditionExpression":
			out.keyCond, err = parseCondition(*x.text, e.names, e.values, used)
		case "FilterExpression":
			out.filter, err = parseCondition(*x.text, e.names, e.values, used)
		default:
			out.projection, err = parseProjection(*x.text, e.names, used)
		}
		if err != nil {
			return validation("Invalid " + x.name + ": " + err.Error())
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func unusedKeys[V any](m map[string]V, used map[string]bool) string {
	var out []string
	for _, k := range sortedKeys(m) {
		if !used[k] {
			out = append(out, k)
		}
	}
	return strings.Join(out, ", ")
}

// keyCond is one key attribute's condition: its operator and operands.
type keyCond struct {
	op   string // =, <, <=, >, >=, between, begins_with
	vals []types.AttributeValue
}

var flipped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// keyConditions reads a parsed KeyConditionExpression as one condition per
// attribute, rejecting what cannot select a key range, before the table's
// schema is known.
func keyConditions(kc *node) (map[string]keyCond, error) {
	conds := map[string]keyCond{}
	var walk func(n *node) error
	walk = func(n *node) error {
		switch n.op {
		case "and":
			if err := walk(n.kids[0]); err != nil {
				return err
			}
			return walk(n.kids[1])
		case "or", "not", "in", "<>":
			return validation("Invalid operator used in KeyConditionExpression: " + strings.ToUpper(n.op))
		case "attribute_exists", "attribute_not_exists", "attribute_type", "contains":
			return validation("Invalid operator used in KeyConditionExpression: " + n.op)
		}
		if (n.op == "between" || n.op == "begins_with") && (n.args[0].path == nil || n.args[0].size) {
			if n.args[0].size {
				return validation("KeyConditionExpressions cannot contain nested operations")
			}
			name := n.op
			if name == "between" {
				name = "BETWEEN"
			}
			return validation("Invalid condition in KeyConditionExpression: " + name + " operator must have the key attribute as its first operand")
		}
		attr, at := "", 0
		for i, a := range n.args {
			if a.size {
				return validation("KeyConditionExpressions cannot contain nested operations")
			}
			if a.path == nil {
				continue
			}
			if attr != "" {
				return validation("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition")
			}
			if len(a.path) > 1 {
				return validation("KeyConditionExpressions cannot have conditions on nested attributes")
			}
			attr, at = a.path[0].name, i
		}
		if attr == "" {
			return validation("Invalid condition in KeyConditionExpression: No key attribute specified")
		}
		if _, dup := conds[attr]; dup {
			return validation("KeyConditionExpressions must only contain one condition per key")
		}
		c := keyCond{op: n.op}
		for i, a := range n.args {
			if i != at {
				c.vals = append(c.vals, a.value)
			}
		}
		if at != 0 {
			c.op = flipped[n.op]
		}
		conds[attr] = c
		return nil
	}
	if err := walk(kc); err != nil {
		return nil, err
	}
	if len(conds) != 1 && len(conds) != 2 {
		return nil, validation("Conditions can be of length 1 or 2 only")
	}
	return conds, nil
}

// checkKeyPiece is DynamoDB's check of one key attribute's value in a key
// or start key: present with the schema's type, not empty, not too long.
func checkKeyPiece(key map[string]types.AttributeValue, attr string, want types.ScalarAttributeType, hash bool) error {
	v, ok := key[attr]
	if !ok || typeName(v) != string(want) {
		return validation("The provided key element does not match the schema")
	}
	raw, _ := sortKey(v)
	if raw == "" && want != types.ScalarAttributeTypeN {
		kind := "string"
		if want == types.ScalarAttributeTypeB {
			kind = "binary"
		}
		return validation("One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty " + kind + " value. Key: " + attr)
	}
	return checkKeySize(v, hash)
}

// checkKeySize is DynamoDB's limit on key values: 2048 bytes for a
// partition key, 1024 for a sort key (numbers are always fine).
func checkKeySize(v types.AttributeValue, hash bool) error {
	n := 0
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		n = len(x.Value)
	case *types.AttributeValueMemberB:
		n = len(x.Value)
	}
	if hash && n > 2048 {
		return validation("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")
	}
	if !hash && n > 1024 {
		return validation("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes")
	}
	return nil
}

// checkKey is a full table key (GetItem's Key, the table part of a start
// key): exactly the table's key attributes, each valid.
func (t *table) checkKey(key map[string]types.AttributeValue) error {
	if len(key) != len(t.keyAttrs()) {
		return validation("The provided key element does not match the schema")
	}
	for i, k := range t.keyAttrs() {
		if err := checkKeyPiece(key, k, t.types[k], i == 0); err != nil {
			return err
		}
	}
	return nil
}

// startKeyNames is every attribute an ExclusiveStartKey must hold: the
// table's keys, and the index's when reading one.
func (r *request) startKeyNames() []string {
	names := r.t.keyAttrs()
	if r.ix != nil {
		for _, k := range []string{r.ix.pk, r.ix.sk} {
			if k != "" && !contains1(names, k) {
				names = append(names, k)
			}
		}
	}
	return names
}

func contains1(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tableStartKey checks the table's part of a start key.
func (r *request) tableStartKey() error {
	key := map[string]types.AttributeValue{}
	for _, k := range r.t.keyAttrs() {
		if v, ok := r.start[k]; ok {
			key[k] = v
		}
	}
	if err := r.t.checkKey(key); err != nil {
		return validation("The provided starting key is invalid: " + err.(interface{ ErrorMessage() string }).ErrorMessage())
	}
	return nil
}

// checkScanStart is Scan's check of ExclusiveStartKey.
func (r *request) checkScanStart() error {
	if r.start == nil {
		return nil
	}
	if len(r.start) != len(r.startKeyNames()) {
		if r.ix != nil {
			return validation("The provided starting key is invalid")
		}
		return validation("The provided starting key is invalid: The provided key element does not match the schema")
	}
	if r.ix != nil {
		for i, k := range []string{r.ix.pk, r.ix.sk} {
			if k == "" {
				continue
			}
			if _, ok := r.start[k]; !ok {
				return validation("The provided starting key is invalid")
			}
			if err := checkKeyPiece(r.start, k, r.t.types[k], i == 0); err != nil {
				return err
			}
		}
	}
	return r.tableStartKey()
}

// queryKey checks a Query's key conditions and ExclusiveStartKey against
// the schema read (the table's or the index's), as DynamoDB does, and
// returns the partition value and the sort-key condition.
func (r *request) queryKey(conds map[string]keyCond) (types.AttributeValue, string, []string, error) {
	pkName, skName := r.st.pkName, r.st.skName
	if r.start != nil && len(r.start) != len(r.startKeyNames()) {
		return nil, "", nil, validation("The provided starting key is invalid")
	}
	schema := []string{pkName}
	if skName != "" {
		schema = append(schema, skName)
	}
	for i, attr := range schema {
		hash := i == 0
		if r.start != nil {
			if _, ok := r.start[attr]; !ok {
				return nil, "", nil, validation("The provided starting key is invalid")
			}
			if err := checkKeyPiece(r.start, attr, r.t.types[attr], hash); err != nil {
				return nil, "", nil, err
			}
		}
		if hash && len(schema) == 1 && len(conds) > 1 {
			return nil, "", nil, validation("Query key condition not supported")
		}
		c, ok := conds[attr]
		if !ok {
			if hash || len(conds) > 1 {
				return nil, "", nil, validation("Query condition missed key schema element: " + attr)
			}
			continue
		}
		for _, v := range c.vals {
			if typeName(v) != string(r.t.types[attr]) {
				return nil, "", nil, validation("One or more parameter values were invalid: Condition parameter type does not match schema type")
			}
		}
		if hash && c.op != "=" {
			return nil, "", nil, validation("Query key condition not supported")
		}
		if kb, _ := sortKey(c.vals[0]); hash && kb == "" && typeName(c.vals[0]) != "N" {
			return nil, "", nil, validation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: " + attr)
		}
	}
	pk := conds[pkName].vals[0]
	sk, hasSK := conds[skName]
	if r.start != nil {
		if err := r.tableStartKey(); err != nil {
			return nil, "", nil, err
		}
		samePK := equal(r.start[pkName], pk)
		if skName == "" || !hasSK {
			if !samePK {
				return nil, "", nil, validation("The provided starting key is outside query boundaries based on provided conditions")
			}
		} else {
			if !matchesKeyCond(r.start[skName], sk) {
				return nil, "", nil, validation("The provided starting key does not match the range key predicate")
			}
			if !samePK {
				return nil, "", nil, validation("The query can return at most one row and cannot be restarted")
			}
		}
	}
	var vals []string
	for _, v := range sk.vals {
		k, _ := sortKey(v)
		vals = append(vals, k)
	}
	return pk, sk.op, vals, nil
}

// matchesKeyCond reports whether a start key's sort key satisfies the sort
// key condition, as DynamoDB requires of a resumed query.
func matchesKeyCond(v types.AttributeValue, c keyCond) bool {
	if c.op == "begins_with" {
		return beginsWith(v, c.vals[0])
	}
	cmp, ok := compare(v, c.vals[0])
	if !ok {
		return false
	}
	switch c.op {
	case "=":
		return cmp == 0
	case "<":
		return cmp < 0
	case "<=":
		return cmp <= 0
	case ">":
		return cmp > 0
	case ">=":
		return cmp >= 0
	case "between":
		hi, ok := compare(v, c.vals[1])
		return cmp >= 0 && ok && hi <= 0
	}
	return true
}

// nestedKeyPath rejects a projection or filter that reads into a key
// attribute of the table or any of its indexes (keys are scalars).
func (t *table) nestedKeyPath(paths []path) error {
	nested := map[string]bool{}
	for _, p := range paths {
		if len(p) > 1 {
			nested[p[0].name] = true
		}
	}
	if len(nested) == 0 {
		return nil
	}
	for _, k := range t.keyAttrs() {
		if nested[k] {
			return validation("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: " + k)
		}
	}
	for _, ix := range t.indexOrder() {
		for _, k := range []string{ix.pk, ix.sk} {
			if !ix.global && k == ix.pk {
				continue
			}
			if k != "" && nested[k] {
				return validation("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: " + k)
			}
		}
	}
	return nil
}

// paths is every document path a condition reads.
func (n *node) paths() []path {
	if n == nil {
		return nil
	}
	var out []path
	for _, k := range n.kids {
		out = append(out, k.paths()...)
	}
	for _, a := range n.args {
		if a.path != nil {
			out = append(out, a.path)
		}
	}
	return out
}
