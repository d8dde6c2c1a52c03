package dynamo

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// StreamsClient is every DynamoDB Streams call dynascope may make: all
// reads, none costing table capacity. *dynamodbstreams.Client and the
// embedded backend satisfy it.
type StreamsClient interface {
	ListStreams(ctx context.Context, in *dynamodbstreams.ListStreamsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error)
	DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

var _ StreamsClient = (*dynamodbstreams.Client)(nil)

// StreamsFromConfig is the Streams client for a DynamoDB connection: the
// same credentials, retries and deadlines; the same endpoint when one was
// given (DynamoDB Local and moto serve both APIs on one port), else AWS's
// Streams endpoint for the region. Its answers are held to the table
// client's bounds: at most MaxAnswerBytes each, checked against their
// CRC when one is sent, a server that never answers named as such.
func StreamsFromConfig(cfg aws.Config, t Target) *dynamodbstreams.Client {
	return dynamodbstreams.NewFromConfig(cfg, func(o *dynamodbstreams.Options) {
		if t.EndpointURL != "" {
			o.BaseEndpoint = aws.String(t.EndpointURL)
		}
		o.APIOptions = append(o.APIOptions, noAnswer(t.where(cfg.Region), cfg.Region, t.timeout()), checkedAnswers)
	})
}

// StreamInfo is what DescribeTable says of a table's stream (ARN "":
// none enabled).
type StreamInfo struct {
	ARN   string
	View  string // KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES
	Label string // LatestStreamLabel: when the stream was created, in DynamoDB's words
}

// streamJSON is a stream as `tables --output json` reports it: enabled
// always said, the rest only for an enabled stream.
type streamJSON struct {
	Enabled  bool   `json:"enabled"`
	ViewType string `json:"viewType,omitempty"`
	Label    string `json:"label,omitempty"`
	ARN      string `json:"arn,omitempty"`
}

func (s StreamInfo) MarshalJSON() ([]byte, error) {
	return json.Marshal(streamJSON{Enabled: s.ARN != "", ViewType: s.View, Label: s.Label, ARN: s.ARN})
}

func (s *StreamInfo) UnmarshalJSON(b []byte) error {
	var j streamJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = StreamInfo{ARN: j.ARN, View: j.ViewType, Label: j.Label}
	return nil
}

// Images says which images the stream's records carry.
func (s StreamInfo) Images() (old, new bool) {
	switch s.View {
	case string(types.StreamViewTypeNewAndOldImages):
		return true, true
	case string(types.StreamViewTypeNewImage):
		return false, true
	case string(types.StreamViewTypeOldImage):
		return true, false
	}
	return false, false
}

// Missing says, for people, what the stream's records lack ("" for
// NEW_AND_OLD_IMAGES).
func (s StreamInfo) Missing() string {
	switch s.View {
	case string(types.StreamViewTypeKeysOnly):
		return "the stream is KEYS_ONLY: its records hold the keys only, no old or new values, so nothing says what changed"
	case string(types.StreamViewTypeNewImage):
		return "the stream is NEW_IMAGE: its records hold no old values, so a MODIFY or REMOVE cannot say what changed"
	case string(types.StreamViewTypeOldImage):
		return "the stream is OLD_IMAGE: its records hold no new values, so an INSERT or MODIFY cannot say what changed"
	}
	return ""
}

// ErrNoStream is a table without a stream enabled.
var ErrNoStream = errors.New("no stream")

// TableStream reads the table's stream from DescribeTable: its ARN and
// view type, or ErrNoStream (wrapped in an *Error saying how to enable
// one; dynascope itself never does).
func TableStream(ctx context.Context, c Client, table string) (StreamInfo, TableInfo, error) {
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return StreamInfo{}, TableInfo{}, Explain("describe table "+table, err) // as DescribeTable says it
	}
	info := tableInfo(out.Table)
	spec := out.Table.StreamSpecification
	arn := aws.ToString(out.Table.LatestStreamArn)
	if spec == nil || !aws.ToBool(spec.StreamEnabled) || arn == "" {
		return StreamInfo{}, info, &Error{Op: "changes", Kind: KindValidation, Err: ErrNoStream,
			Msg:  "table " + table + " has no stream enabled, so DynamoDB keeps no record of its changes",
			Hint: "enable one (dynascope never writes): aws dynamodb update-table --table-name " + table + " --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"}
	}
	return info.Stream, info, nil
}

// FromStreamItem is an item from a stream record in DynamoDB's attribute
// value types (the Streams API has its own, of the same shapes).
func FromStreamItem(item map[string]stypes.AttributeValue) Item {
	if item == nil {
		return nil
	}
	out := make(Item, len(item))
	for k, v := range item {
		out[k] = fromStreamValue(v)
	}
	return out
}

func fromStreamValue(av stypes.AttributeValue) types.AttributeValue {
	switch v := av.(type) {
	case *stypes.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: v.Value}
	case *stypes.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: v.Value}
	case *stypes.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: v.Value}
	case *stypes.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Value}
	case *stypes.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: v.Value}
	case *stypes.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: v.Value}
	case *stypes.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: v.Value}
	case *stypes.AttributeValueMemberBS:
		return &types.AttributeValueMemberBS{Value: v.Value}
	case *stypes.AttributeValueMemberM:
		return &types.AttributeValueMemberM{Value: FromStreamItem(v.Value)}
	case *stypes.AttributeValueMemberL:
		l := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = fromStreamValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	}
	// Of no type DynamoDB has: never NULL, which it is not (checkRecords
	// refuses such a record before it is read).
	return nil
}
