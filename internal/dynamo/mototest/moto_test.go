package mototest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// TestMotoHasStreams holds what the stream reader's tests rely on: a table
// created with a StreamSpecification has a stream, and the four Streams
// calls answer at the DynamoDB endpoint with each write's record.
func TestMotoHasStreams(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, st := s.Client(), s.Streams()
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("MotoStreams"),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.TableDescription.LatestStreamArn)
	if arn == "" {
		t.Fatal("CreateTable with a StreamSpecification gave no LatestStreamArn")
	}
	for _, n := range []string{"1", "2"} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("MotoStreams"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "a"}, "n": &types.AttributeValueMemberN{Value: n}}}); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := st.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("MotoStreams")})
	if err != nil || len(ls.Streams) != 1 || aws.ToString(ls.Streams[0].StreamArn) != arn {
		t.Fatalf("ListStreams = %+v, %v; want the one stream %s", ls, err, arn)
	}
	ds, err := st.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil || len(ds.StreamDescription.Shards) == 0 {
		t.Fatalf("DescribeStream = %+v, %v", ds, err)
	}
	it, err := st.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: ds.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil {
		t.Fatal(err)
	}
	var events []stypes.OperationType
	for _, r := range recs.Records {
		events = append(events, r.EventName)
	}
	if len(events) != 2 || events[0] != stypes.OperationTypeInsert || events[1] != stypes.OperationTypeModify {
		t.Fatalf("records = %v, want INSERT then MODIFY", events)
	}
	if recs.Records[1].Dynamodb.OldImage == nil || recs.Records[1].Dynamodb.NewImage == nil {
		t.Fatalf("MODIFY of a NEW_AND_OLD_IMAGES stream lacks an image: %+v", recs.Records[1].Dynamodb)
	}
}

// TestSeedingSurvivesALostAnswer: a CreateTable whose answer was lost
// after moto made the table is sent again by the SDK and meets its own
// table. Through Seeding it is the table made, and demo.CreateKeyTable
// goes on to write every item; a table that was there before the first
// attempt is still refused. (Taking the retry's ResourceInUseException as
// "created" stopped the seeding, and TestPublishedEntities read an empty
// ShopDesign on a loaded machine.)
func TestSeedingSurvivesALostAnswer(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	proxy := dynalitetest.NewFaultProxy(s.Endpoint, 1)
	defer proxy.Close()
	proxy.OnlyOn("CreateTable")
	c := client(proxy.URL, 3)
	var items []dynamo.Item
	for i := range 30 {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%02d", i)}})
	}

	proxy.FailNext(1, dynalitetest.FaultLostAnswer)
	err := demo.CreateKeyTable(ctx, c, "LostAnswerPlain", "S", items)
	var inUse *types.ResourceInUseException
	if !errors.As(err, &inUse) {
		t.Fatalf("a plain client's CreateTable retried after its answer was lost: %v; want ResourceInUseException (what the seeding stopped on)", err)
	}
	if out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("LostAnswerPlain"), Select: types.SelectCount}); err != nil || out.Count != 0 {
		t.Fatalf("the table whose seeding stopped: %v; want it there and empty, as ShopDesign was", err)
	}

	proxy.FailNext(1, dynalitetest.FaultLostAnswer)
	if err := demo.CreateKeyTable(ctx, Seeding(c), "LostAnswerSeeded", "S", items); err != nil {
		t.Fatalf("seeding through a lost answer: %v", err)
	}
	if n := proxy.Injected()[dynalitetest.FaultLostAnswer]; n != 2 {
		t.Fatalf("%d answers lost, want 2", n)
	}
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("LostAnswerSeeded"), Select: types.SelectCount})
	if err != nil || out.Count != int32(len(items)) {
		t.Errorf("the table seeded through a lost answer holds %d items (%v), want %d", out.Count, err, len(items))
	}

	if _, err := Seeding(c).CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("LostAnswerSeeded"),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode:          types.BillingModePayPerRequest,
	}); !errors.As(err, &inUse) {
		t.Errorf("a name another table has, on the first attempt: %v; want ResourceInUseException", err)
	}
}
