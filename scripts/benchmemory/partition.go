package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const benchTable = "Bench"

// partition is a read-only client over one table of one partition, P,
// whose items (sort key N, 0 to n-1) are made when a Query asks for them,
// the same every time: DynamoDB's paging (Limit, 1 MB pages,
// ExclusiveStartKey, either direction) and its consumed capacity, nothing
// more. It answers only the requests the explorer makes of it here.
type partition struct {
	n, payload int
}

func newPartition(n, payload int) *partition { return &partition{n: n, payload: payload} }

func (p *partition) item(i int) (map[string]types.AttributeValue, int) {
	filler := strings.Repeat(string(rune('a'+i%26)), p.payload)
	it := map[string]types.AttributeValue{
		"PK":      &types.AttributeValueMemberS{Value: "P"},
		"SK":      &types.AttributeValueMemberN{Value: strconv.Itoa(i)},
		"Status":  &types.AttributeValueMemberS{Value: []string{"OK", "FAIL", "RETRY"}[i%3]},
		"Count":   &types.AttributeValueMemberN{Value: strconv.Itoa(i % 977)},
		"Payload": &types.AttributeValueMemberS{Value: filler},
	}
	size := 0
	for k, v := range it {
		size += len(k)
		switch x := v.(type) {
		case *types.AttributeValueMemberS:
			size += len(x.Value)
		case *types.AttributeValueMemberN:
			size += len(x.Value)
		}
	}
	return it, size
}

func (p *partition) ListTables(context.Context, *dynamodb.ListTablesInput, ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return &dynamodb.ListTablesOutput{TableNames: []string{benchTable}}, nil
}

func (p *partition) DescribeTable(_ context.Context, in *dynamodb.DescribeTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	if aws.ToString(in.TableName) != benchTable {
		return nil, &types.ResourceNotFoundException{Message: aws.String("Requested resource not found")}
	}
	return &dynamodb.DescribeTableOutput{Table: &types.TableDescription{
		TableName:            aws.String(benchTable),
		TableStatus:          types.TableStatusActive,
		ItemCount:            aws.Int64(int64(p.n)),
		TableSizeBytes:       aws.Int64(int64(p.n) * int64(p.payload+50)),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeN}},
	}}, nil
}

// Query pages through P in sort-key order: no key condition on the sort
// key, no filter (the explorer's items list asks for neither here).
func (p *partition) Query(ctx context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if in.FilterExpression != nil || strings.Contains(aws.ToString(in.KeyConditionExpression), "AND") || in.IndexName != nil {
		return nil, errors.New("benchmemory: only a partition's plain Query is made here")
	}
	forward := in.ScanIndexForward == nil || *in.ScanIndexForward
	i, step := 0, 1
	if !forward {
		i, step = p.n-1, -1
	}
	if k, ok := in.ExclusiveStartKey["SK"].(*types.AttributeValueMemberN); ok {
		at, err := strconv.Atoi(k.Value)
		if err != nil {
			return nil, fmt.Errorf("benchmemory: start key %q", k.Value)
		}
		i = at + step
	}
	limit := int(aws.ToInt32(in.Limit))
	out := &dynamodb.QueryOutput{}
	bytes := 0
	for ; i >= 0 && i < p.n; i += step {
		if limit > 0 && len(out.Items) >= limit {
			break
		}
		it, size := p.item(i)
		if bytes+size > 1<<20 {
			break
		}
		bytes += size
		out.Items = append(out.Items, it)
	}
	if i >= 0 && i < p.n && len(out.Items) > 0 {
		last := out.Items[len(out.Items)-1]
		out.LastEvaluatedKey = map[string]types.AttributeValue{"PK": last["PK"], "SK": last["SK"]}
	}
	out.Count, out.ScannedCount = int32(len(out.Items)), int32(len(out.Items))
	rcu := math.Ceil(float64(bytes)/4096) * 0.5 // eventually consistent
	out.ConsumedCapacity = &types.ConsumedCapacity{TableName: in.TableName, CapacityUnits: aws.Float64(rcu)}
	return out, nil
}

func (p *partition) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return nil, errors.New("benchmemory: no Scan is made here")
}

func (p *partition) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, errors.New("benchmemory: no GetItem is made here")
}
