package domain

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
)

// wireValue is a key value as DynamoDB JSON: {"S": "…"}, {"N": "…"}, {"B": base64}.
func wireValue(v KeyValue) map[string]any {
	switch v.Type {
	case TypeN:
		return map[string]any{"N": v.Text}
	case TypeB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Bytes)}
	}
	return map[string]any{"S": v.Text}
}

// ShellQuote quotes s for a POSIX shell: one single-quoted word.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// AWSCLICommand is the `aws dynamodb query` command that asks exactly what
// q asks: the same key condition (names through #placeholders, so reserved
// words such as Timestamp work), values, index and direction. region and
// endpoint are added when set; limit when above 0.
func AWSCLICommand(q KeyQuery, region, endpoint string, limit int) string {
	return awsQueryCommand(q, nil, region, endpoint, limit)
}

func awsQueryCommand(q KeyQuery, project []Path, region, endpoint string, limit int) string {
	names := map[string]string{"#pk": q.PKName}
	values := map[string]map[string]any{":pk": wireValue(q.PK)}
	cond := "#pk = :pk"
	switch q.SK.Op {
	case SKNone:
	case SKBetween:
		cond += " AND #sk BETWEEN :lo AND :hi"
		values[":lo"], values[":hi"] = wireValue(q.SK.A), wireValue(q.SK.B)
	case SKBeginsWith:
		cond += " AND begins_with(#sk, :prefix)"
		values[":prefix"] = wireValue(q.SK.A)
	default:
		cond += fmt.Sprintf(" AND #sk %s :sk", skOpSymbols[q.SK.Op])
		values[":sk"] = wireValue(q.SK.A)
	}
	if q.SK.Op != SKNone {
		names["#sk"] = q.SKName
	}
	filter, projection, fnames, fvalues := placeholderExpressions(q.Filter, project)
	maps.Copy(names, fnames)
	maps.Copy(values, fvalues)
	nj, _ := json.Marshal(names) // map keys come out sorted: a stable command
	vj, _ := json.Marshal(values)
	parts := []string{"aws", "dynamodb", "query", "--table-name", ShellQuote(q.Table)}
	if q.Index != "" {
		parts = append(parts, "--index-name", ShellQuote(q.Index))
	}
	parts = append(parts, "--key-condition-expression", ShellQuote(cond))
	if filter != "" {
		parts = append(parts, "--filter-expression", ShellQuote(filter))
	}
	if projection != "" {
		parts = append(parts, "--projection-expression", ShellQuote(projection))
	}
	parts = append(parts, "--expression-attribute-names", ShellQuote(string(nj)),
		"--expression-attribute-values", ShellQuote(string(vj)))
	if q.Reverse {
		parts = append(parts, "--no-scan-index-forward")
	}
	if limit > 0 {
		parts = append(parts, "--max-items", fmt.Sprint(limit))
	}
	return strings.Join(append(parts, connectionFlags(region, endpoint)...), " ")
}

// AWSScanCommand is the `aws dynamodb scan` command that reads what a
// filtered Scan of table (or its index) reads: the same filter, names and
// values through placeholders. region and endpoint are added when set.
func AWSScanCommand(table, index string, filter FilterNode, region, endpoint string) string {
	return awsScanCommand(table, index, filter, nil, region, endpoint)
}

func awsScanCommand(table, index string, filter FilterNode, project []Path, region, endpoint string) string {
	parts := []string{"aws", "dynamodb", "scan", "--table-name", ShellQuote(table)}
	if index != "" {
		parts = append(parts, "--index-name", ShellQuote(index))
	}
	expr, projection, names, values := placeholderExpressions(filter, project)
	if expr != "" {
		parts = append(parts, "--filter-expression", ShellQuote(expr))
	}
	if projection != "" {
		parts = append(parts, "--projection-expression", ShellQuote(projection))
	}
	if len(names) > 0 {
		nj, _ := json.Marshal(names) // sorted keys: a stable command
		parts = append(parts, "--expression-attribute-names", ShellQuote(string(nj)))
	}
	if len(values) > 0 {
		vj, _ := json.Marshal(values)
		parts = append(parts, "--expression-attribute-values", ShellQuote(string(vj)))
	}
	return strings.Join(append(parts, connectionFlags(region, endpoint)...), " ")
}

// AWSPlanCommand is the aws command, or the commands one a line, that read
// what a statement's plan reads: its Queries (IN on the key is several)
// or its Scan, with the filter and the projection. A filter naming the
// keys (Plan.FilterNamesKeys), which DynamoDB refuses in a Query's
// FilterExpression, is left out of the Queries and said on a # line above
// them: dynascope applies it to the items they read.
func AWSPlanCommand(plan Plan, region, endpoint string) string {
	if len(plan.Queries) == 0 {
		return awsScanCommand(plan.Table, plan.Index, plan.Filter, plan.Project, region, endpoint)
	}
	var cmds []string
	if plan.FilterNamesKeys && plan.Filter != nil {
		cmds = append(cmds, "# dynascope keeps what these read that the WHERE matches: a Query's filter may not name its keys")
	}
	for _, q := range plan.Queries {
		if !plan.FilterNamesKeys {
			q.Filter = plan.Filter
		}
		cmds = append(cmds, awsQueryCommand(q, plan.Project, region, endpoint, 0))
	}
	return strings.Join(cmds, "\n")
}

// placeholderExpressions are a filter and a projection as DynamoDB takes
// them, one set of #f names between them.
func placeholderExpressions(filter FilterNode, project []Path) (expr, projection string, names map[string]string, values map[string]map[string]any) {
	r := placeholderRenderer{names: map[string]string{}, byName: map[string]string{}, values: map[string]map[string]any{}}
	if filter != nil {
		expr = r.node(filter, false)
	}
	var paths []string
	for _, p := range ProjectedPaths(project) {
		paths = append(paths, r.path(p))
	}
	return expr, strings.Join(paths, ", "), r.names, r.values
}

// connectionFlags ask for the consumed capacity and name the region and
// endpoint where set, so a pasted command reads where dynascope read.
func connectionFlags(region, endpoint string) []string {
	flags := []string{"--return-consumed-capacity", "TOTAL"}
	if region != "" {
		flags = append(flags, "--region", ShellQuote(region))
	}
	if endpoint != "" {
		flags = append(flags, "--endpoint-url", ShellQuote(endpoint))
	}
	return flags
}

// goKeyValue is a key value as Go source for the expression builder.
func goKeyValue(v KeyValue) string {
	switch v.Type {
	case TypeN:
		return fmt.Sprintf("&types.AttributeValueMemberN{Value: %q}", v.Text)
	case TypeB:
		return fmt.Sprintf("&types.AttributeValueMemberB{Value: []byte(%q)}", string(v.Bytes))
	}
	return fmt.Sprintf("&types.AttributeValueMemberS{Value: %q}", v.Text)
}

// goBinaryStandIn stands for a binary begins_with operand in the Go
// snippet, which the expression builder would send as a string.
const goBinaryStandIn = "\x00binary prefix"

// GoSnippet is Go code (aws-sdk-go-v2, feature/dynamodb/expression) that
// runs the same Query as q: a function body to paste where a
// *dynamodb.Client named client and a context ctx are in scope.
func GoSnippet(q KeyQuery) string {
	var b strings.Builder
	binaryPrefix := q.SK.Op == SKBeginsWith && q.SK.A.Type == TypeB
	val := func(v KeyValue) string { return "expression.Value(" + goKeyValue(v) + ")" }
	fmt.Fprintf(&b, "keyCond := expression.Key(%q).Equal(%s)\n", q.PKName, val(q.PK))
	sk := fmt.Sprintf("expression.Key(%q)", q.SKName)
	switch q.SK.Op {
	case SKNone:
	case SKBetween:
		fmt.Fprintf(&b, "keyCond = keyCond.And(%s.Between(%s, %s))\n", sk, val(q.SK.A), val(q.SK.B))
	case SKBeginsWith:
		prefix := q.SK.A.Text
		if binaryPrefix {
			b.WriteString("// begins_with takes its operand as a string here: a stand-in goes in, and the\n// binary prefix replaces it in the values below.\n")
			prefix = goBinaryStandIn
		}
		fmt.Fprintf(&b, "keyCond = keyCond.And(%s.BeginsWith(%q))\n", sk, prefix)
	default:
		method := map[SKOp]string{SKEq: "Equal", SKLt: "LessThan", SKLe: "LessThanEqual", SKGt: "GreaterThan", SKGe: "GreaterThanEqual"}[q.SK.Op]
		fmt.Fprintf(&b, "keyCond = keyCond.And(%s.%s(%s))\n", sk, method, val(q.SK.A))
	}
	if q.Filter != nil {
		fmt.Fprintf(&b, "filter := %s\n", goFilter(q.Filter))
		b.WriteString("expr, err := expression.NewBuilder().WithKeyCondition(keyCond).WithFilter(filter).Build()\n")
	} else {
		b.WriteString("expr, err := expression.NewBuilder().WithKeyCondition(keyCond).Build()\n")
	}
	b.WriteString("if err != nil {\n\treturn err\n}\n")
	values := "expr.Values()"
	if binaryPrefix {
		b.WriteString("values := expr.Values()\nfor name, v := range values {\n")
		fmt.Fprintf(&b, "\tif s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == %q {\n\t\tvalues[name] = %s\n\t}\n}\n", goBinaryStandIn, goKeyValue(q.SK.A))
		values = "values"
	}
	b.WriteString("paginator := dynamodb.NewQueryPaginator(client, &dynamodb.QueryInput{\n")
	fmt.Fprintf(&b, "\tTableName:                 aws.String(%q),\n", q.Table)
	if q.Index != "" {
		fmt.Fprintf(&b, "\tIndexName:                 aws.String(%q),\n", q.Index)
	}
	b.WriteString("\tKeyConditionExpression:    expr.KeyCondition(),\n")
	b.WriteString("\tExpressionAttributeNames:  expr.Names(),\n")
	fmt.Fprintf(&b, "\tExpressionAttributeValues: %s,\n", values)
	if q.Filter != nil {
		b.WriteString("\tFilterExpression:          expr.Filter(),\n")
	}
	fmt.Fprintf(&b, "\tScanIndexForward:          aws.Bool(%v),\n", !q.Reverse)
	b.WriteString("})\n")
	b.WriteString("for paginator.HasMorePages() {\n\tpage, err := paginator.NextPage(ctx)\n\tif err != nil {\n\t\treturn err\n\t}\n\tfor _, item := range page.Items {\n\t\t_ = item // use the item\n\t}\n}\n")
	return b.String()
}
