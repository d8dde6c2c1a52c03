package model

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// wireValue is a key value as DynamoDB JSON: {"S": "…"}, {"N": "…"}, {"B": base64}.
func wireValue(v KeyValue) map[string]string {
	switch v.Type {
	case TypeN:
		return map[string]string{"N": v.Text}
	case TypeB:
		return map[string]string{"B": base64.StdEncoding.EncodeToString(v.Bytes)}
	}
	return map[string]string{"S": v.Text}
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
	names := map[string]string{"#pk": q.PKName}
	values := map[string]map[string]string{":pk": wireValue(q.PK)}
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
	nj, _ := json.Marshal(names) // map keys come out sorted: a stable command
	vj, _ := json.Marshal(values)
	parts := []string{"aws", "dynamodb", "query", "--table-name", ShellQuote(q.Table)}
	if q.Index != "" {
		parts = append(parts, "--index-name", ShellQuote(q.Index))
	}
	parts = append(parts, "--key-condition-expression", ShellQuote(cond),
		"--expression-attribute-names", ShellQuote(string(nj)),
		"--expression-attribute-values", ShellQuote(string(vj)))
	if q.Reverse {
		parts = append(parts, "--no-scan-index-forward")
	}
	if limit > 0 {
		parts = append(parts, "--max-items", fmt.Sprint(limit))
	}
	parts = append(parts, "--return-consumed-capacity", "TOTAL")
	if region != "" {
		parts = append(parts, "--region", ShellQuote(region))
	}
	if endpoint != "" {
		parts = append(parts, "--endpoint-url", ShellQuote(endpoint))
	}
	return strings.Join(parts, " ")
}
