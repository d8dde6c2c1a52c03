package memory

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// DynamoDB Streams on the embedded backend: a table created with a
// StreamSpecification records each PutItem and BatchWriteItem write that
// changes an item (INSERT, MODIFY, REMOVE, with the images its view type
// keeps) in a tree of shards, served through the four read calls of the
// Streams API with DynamoDB's answers and errors. Items loaded in bulk
// (--data, the demo's lazy tables) are the table as it was, not writes,
// and record nothing.

const (
	streamRetention = 24 * time.Hour   // records older are trimmed
	iteratorLife    = 15 * time.Minute // a shard iterator expires after
	maxRecordsBytes = 1 << 20          // one GetRecords answer, at most
)

// streamClock is the time stream records carry: time.Now unless a test or
// the demo set another (SetClock). The iterators' signing key lives here
// too, made on first use.
type streamClock struct {
	mu  sync.Mutex
	now func() time.Time
	key []byte
}

func (c *streamClock) time() time.Time {
	c.mu.Lock()
	now := c.now
	c.mu.Unlock()
	if now == nil {
		return time.Now()
	}
	return now()
}

func (c *streamClock) signingKey() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key == nil {
		c.key = make([]byte, 32)
		_, _ = rand.Read(c.key)
	}
	return c.key
}

// SetClock sets the time stream records and iterators are stamped with
// (nil: time.Now), so that a test can age a stream past its 24 hours or an
// iterator past its 15 minutes.
func (db *DB) SetClock(now func() time.Time) {
	db.clock.mu.Lock()
	defer db.clock.mu.Unlock()
	db.clock.now = now
}

type stream struct {
	arn, label, table string
	view              stypes.StreamViewType
	keySchema         []stypes.KeySchemaElement
	created           time.Time
	shards            []*shard // in creation order: parents before children
	next              int64    // the next record's sequence number
	made              int      // shards made, for their ids
}

// A shard holds the records of the keys whose hash falls in [lo, hi]; a
// split closes it and gives each half to a child, so a key's records stay
// in one lineage, parent before child, as in DynamoDB.
type shard struct {
	id, parent string
	lo, hi     uint64
	start      int64 // the sequence number its records start at
	end        int64 // its last sequence number, once closed
	closed     bool
	closedAt   time.Time
	recs       []stypes.Record
	at         []time.Time // each record's time, for trimming
	trimmed    int         // records dropped from the front: positions are absolute
}

func seqText(n int64) string { return "1" + fmt.Sprintf("%020d", n) }

func parseSeq(s string) (int64, bool) {
	if len(s) != 21 || s[0] != '1' {
		return 0, false
	}
	n, err := strconv.ParseInt(s[1:], 10, 64)
	return n, err == nil
}

func (db *DB) enableStream(t *table, spec *types.StreamSpecification) error {
	if spec == nil || !aws.ToBool(spec.StreamEnabled) {
		return nil
	}
	switch spec.StreamViewType {
	case types.StreamViewTypeKeysOnly, types.StreamViewTypeNewImage, types.StreamViewTypeOldImage, types.StreamViewTypeNewAndOldImages:
	case "":
		return validation("One or more parameter values were invalid: You must specify a StreamViewType when enabling a stream")
	default:
		return validation("1 validation error detected: Value '" + string(spec.StreamViewType) + "' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]")
	}
	// The label is the stream's creation time, as DynamoDB's is; the
	// backend dates its tables at the epoch (CreationDateTime), so the
	// stream is dated with its table and a demo's ARNs never vary.
	now := aws.ToTime(t.desc.CreationDateTime).UTC()
	label := now.Format("2006-01-02T15:04:05.000")
	s := &stream{arn: aws.ToString(t.desc.TableArn) + "/stream/" + label, label: label, table: aws.ToString(t.desc.TableName),
		view: stypes.StreamViewType(spec.StreamViewType), created: now}
	for _, k := range t.desc.KeySchema {
		s.keySchema = append(s.keySchema, stypes.KeySchemaElement{AttributeName: k.AttributeName, KeyType: stypes.KeyType(k.KeyType)})
	}
	s.shards = []*shard{s.newShard("", 0, math.MaxUint64, now)}
	t.stream = s
	t.desc.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: spec.StreamViewType}
	t.desc.LatestStreamArn, t.desc.LatestStreamLabel = aws.String(s.arn), aws.String(label)
	return nil
}

func (s *stream) newShard(parent string, lo, hi uint64, now time.Time) *shard {
	s.made++
	return &shard{id: fmt.Sprintf("shardId-%020d-%08x", now.UnixMilli(), s.made), parent: parent, lo: lo, hi: hi, start: s.next}
}

func keyHash(av types.AttributeValue) uint64 {
	h := fnv.New64a()
	h.Write([]byte(typeName(av)))
	h.Write(keyBytes(av))
	return h.Sum64()
}

// write records one change of t's item: old nil for an insert, item nil
// for a removal. A write that changes nothing records nothing, as in
// DynamoDB. Called under the database's write lock.
func (s *stream) write(t *table, old, item map[string]types.AttributeValue) {
	if s == nil || (old == nil && item == nil) {
		return
	}
	if old != nil && item != nil && encodeItem(old) == encodeItem(normalizeItem(item)) {
		return
	}
	event, from := stypes.OperationTypeModify, item
	switch {
	case old == nil:
		event = stypes.OperationTypeInsert
	case item == nil:
		event, from = stypes.OperationTypeRemove, old
	}
	keys := map[string]types.AttributeValue{}
	for _, k := range t.keyAttrs() {
		keys[k] = from[k]
	}
	now := t.streamNow()
	s.trim(now)
	h := keyHash(keys[t.pk])
	var sh *shard
	for _, x := range s.shards {
		if !x.closed && x.lo <= h && h <= x.hi {
			sh = x // the open shard of the key's lineage: exactly one
		}
	}
	seq := s.next
	s.next++
	r := &stypes.StreamRecord{
		ApproximateCreationDateTime: aws.Time(now.UTC().Truncate(time.Second)), // DynamoDB rounds down to the second
		Keys:                        toStreamItem(keys),
		SequenceNumber:              aws.String(seqText(seq)),
		StreamViewType:              s.view,
	}
	if item != nil && (s.view == stypes.StreamViewTypeNewImage || s.view == stypes.StreamViewTypeNewAndOldImages) {
		r.NewImage = toStreamItem(normalizeItem(item))
	}
	if old != nil && (s.view == stypes.StreamViewTypeOldImage || s.view == stypes.StreamViewTypeNewAndOldImages) {
		r.OldImage = toStreamItem(old)
	}
	size := itemSize(keys)
	if r.NewImage != nil {
		size += itemSize(item)
	}
	if r.OldImage != nil {
		size += itemSize(old)
	}
	r.SizeBytes = aws.Int64(int64(size))
	sh.recs = append(sh.recs, stypes.Record{
		EventID: aws.String(fmt.Sprintf("%032x", seq)), EventName: event, EventVersion: aws.String("1.1"),
		EventSource: aws.String("aws:dynamodb"), AwsRegion: aws.String("us-east-1"), Dynamodb: r,
	})
	sh.at = append(sh.at, now)
}

// streamNow is the database's stream clock.
func (t *table) streamNow() time.Time { return t.clock.time() }

// trim drops records older than the stream keeps, and closed shards left
// empty a day after they closed, as DynamoDB does.
func (s *stream) trim(now time.Time) {
	cut := now.Add(-streamRetention)
	kept := s.shards[:0]
	for _, sh := range s.shards {
		n := 0
		for n < len(sh.at) && sh.at[n].Before(cut) {
			n++
		}
		if n > 0 {
			sh.recs, sh.at = append([]stypes.Record(nil), sh.recs[n:]...), append([]time.Time(nil), sh.at[n:]...)
			sh.trimmed += n
		}
		if sh.closed && len(sh.recs) == 0 && sh.closedAt.Before(cut) {
			continue
		}
		kept = append(kept, sh)
	}
	s.shards = kept
}

// SplitShards closes every open shard of table's stream and gives each two
// children, splitting its keys between them: what DynamoDB does as a
// table's partitions split, for the tests of reading a shard tree.
func (db *DB) SplitShards(table string) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	t, err := db.table(table)
	if err != nil {
		return err
	}
	if t.stream == nil {
		return fmt.Errorf("table %s has no stream", table)
	}
	s, now := t.stream, t.streamNow()
	for _, sh := range append([]*shard(nil), s.shards...) {
		if sh.closed {
			continue
		}
		sh.closed, sh.closedAt, sh.end = true, now, s.next-1
		mid := sh.lo + (sh.hi-sh.lo)/2
		s.shards = append(s.shards, s.newShard(sh.id, sh.lo, mid, now), s.newShard(sh.id, mid+1, sh.hi, now))
	}
	return nil
}

// streamTable finds the table whose stream is arn, its stream trimmed to
// the present. Called under the database's write lock.
func (db *DB) streamTable(arn string) (*table, error) {
	for _, t := range db.tables {
		if t.stream != nil && t.stream.arn == arn {
			t.stream.trim(t.streamNow())
			return t, nil
		}
	}
	return nil, &stypes.ResourceNotFoundException{Message: aws.String("Requested resource not found: Stream: " + arn + " not found")}
}

func (s *stream) shard(id string) *shard {
	for _, sh := range s.shards {
		if sh.id == id {
			return sh
		}
	}
	return nil
}

// ListStreams lists the streams of every table, or of one, in table order.
func (db *DB) ListStreams(ctx context.Context, in *dynamodbstreams.ListStreamsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, validation(fmt.Sprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100 and greater than or equal to 1", *in.Limit))
		}
		limit = int(*in.Limit)
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	name := aws.ToString(in.TableName)
	if name != "" {
		if _, err := db.table(name); err != nil {
			return nil, &stypes.ResourceNotFoundException{Message: aws.String("Requested resource not found: Table: " + name + " not found")}
		}
	}
	var all []stypes.Stream
	for _, t := range db.tables {
		if t.stream != nil && (name == "" || t.stream.table == name) {
			all = append(all, stypes.Stream{StreamArn: aws.String(t.stream.arn), StreamLabel: aws.String(t.stream.label), TableName: aws.String(t.stream.table)})
		}
	}
	sort.Slice(all, func(i, j int) bool { return aws.ToString(all[i].StreamArn) < aws.ToString(all[j].StreamArn) })
	if after := aws.ToString(in.ExclusiveStartStreamArn); after != "" {
		i := sort.Search(len(all), func(i int) bool { return aws.ToString(all[i].StreamArn) > after })
		all = all[i:]
	}
	out := &dynamodbstreams.ListStreamsOutput{Streams: all}
	if len(all) > limit {
		out.Streams = all[:limit]
		out.LastEvaluatedStreamArn = all[limit-1].StreamArn
	}
	return out, nil
}

// DescribeStream describes a stream and its shards, parents first, paged.
func (db *DB) DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if aws.ToString(in.StreamArn) == "" {
		return nil, validation("1 validation error detected: Value null at 'streamArn' failed to satisfy constraint: Member must not be null")
	}
	limit := 100
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, validation(fmt.Sprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100 and greater than or equal to 1", *in.Limit))
		}
		limit = int(*in.Limit)
	}
	db.mu.Lock() // reading trims
	defer db.mu.Unlock()
	t, err := db.streamTable(aws.ToString(in.StreamArn))
	if err != nil {
		return nil, err
	}
	s := t.stream
	shards := s.shards
	if after := aws.ToString(in.ExclusiveStartShardId); after != "" {
		for i, sh := range shards {
			if sh.id == after {
				shards = shards[i+1:]
				break
			}
		}
	}
	d := &stypes.StreamDescription{
		StreamArn: aws.String(s.arn), StreamLabel: aws.String(s.label), StreamStatus: stypes.StreamStatusEnabled,
		StreamViewType: s.view, CreationRequestDateTime: aws.Time(s.created), TableName: aws.String(s.table), KeySchema: s.keySchema,
	}
	for i, sh := range shards {
		if i == limit {
			d.LastEvaluatedShardId = d.Shards[limit-1].ShardId
			break
		}
		first := sh.start // a shard with no record yet starts at the next one
		if len(sh.recs) > 0 {
			first, _ = parseSeq(aws.ToString(sh.recs[0].Dynamodb.SequenceNumber))
		}
		r := &stypes.SequenceNumberRange{StartingSequenceNumber: aws.String(seqText(first))}
		if sh.closed {
			r.EndingSequenceNumber = aws.String(seqText(max(sh.end, first)))
		}
		x := stypes.Shard{ShardId: aws.String(sh.id), SequenceNumberRange: r}
		if sh.parent != "" {
			x.ParentShardId = aws.String(sh.parent)
		}
		d.Shards = append(d.Shards, x)
	}
	return &dynamodbstreams.DescribeStreamOutput{StreamDescription: d}, nil
}

// An iterator is a position in a shard, signed so that one this backend
// did not issue is refused, and stamped with when it was issued.
func (db *DB) iterator(arn, shardID string, pos int, now time.Time) string {
	body := fmt.Sprintf("%s|%s|%d|%d", arn, shardID, pos, now.UnixNano())
	return body + "|" + db.sign(body)
}

func (db *DB) sign(body string) string {
	m := hmac.New(sha256.New, db.clock.signingKey())
	m.Write([]byte(body))
	return hex.EncodeToString(m.Sum(nil)[:12])
}

type position struct {
	arn, shard string
	pos        int
	issued     time.Time
}

func (db *DB) parseIterator(it string) (position, bool) {
	i := strings.LastIndexByte(it, '|')
	if i < 0 || !hmac.Equal([]byte(db.sign(it[:i])), []byte(it[i+1:])) {
		return position{}, false
	}
	f := strings.Split(it[:i], "|")
	if len(f) != 4 {
		return position{}, false
	}
	pos, err1 := strconv.Atoi(f[2])
	ns, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil {
		return position{}, false
	}
	return position{arn: f[0], shard: f[1], pos: pos, issued: time.Unix(0, ns)}, true
}

// GetShardIterator gives a position in a shard to read from.
func (db *DB) GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	id := aws.ToString(in.ShardId)
	switch {
	case aws.ToString(in.StreamArn) == "":
		return nil, validation("1 validation error detected: Value null at 'streamArn' failed to satisfy constraint: Member must not be null")
	case len(id) < 28 || len(id) > 65:
		return nil, validation(fmt.Sprintf("1 validation error detected: Value '%s' at 'shardId' failed to satisfy constraint: Member must have length less than or equal to 65 and greater than or equal to 28", id))
	}
	seqGiven := aws.ToString(in.SequenceNumber)
	switch in.ShardIteratorType {
	case stypes.ShardIteratorTypeTrimHorizon, stypes.ShardIteratorTypeLatest:
	case stypes.ShardIteratorTypeAtSequenceNumber, stypes.ShardIteratorTypeAfterSequenceNumber:
		if seqGiven == "" {
			return nil, validation("Must specify a sequence number for iterator type " + string(in.ShardIteratorType))
		}
	default:
		return nil, validation("1 validation error detected: Value '" + string(in.ShardIteratorType) + "' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, AT_SEQUENCE_NUMBER, TRIM_HORIZON]")
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	t, err := db.streamTable(aws.ToString(in.StreamArn))
	if err != nil {
		return nil, err
	}
	sh := t.stream.shard(id)
	if sh == nil {
		return nil, &stypes.ResourceNotFoundException{Message: aws.String("Requested resource not found: Shard does not exist")}
	}
	pos := sh.trimmed
	switch in.ShardIteratorType {
	case stypes.ShardIteratorTypeLatest:
		pos = sh.trimmed + len(sh.recs)
	case stypes.ShardIteratorTypeAtSequenceNumber, stypes.ShardIteratorTypeAfterSequenceNumber:
		n, ok := parseSeq(seqGiven)
		if !ok || n < sh.start || n > lastSeq(sh) {
			return nil, validation("Invalid SequenceNumber " + seqGiven + " for shard " + id)
		}
		retained := t.stream.next // the first sequence number still held
		if len(sh.recs) > 0 {
			retained = seqOf(sh.recs[0])
		}
		if sh.trimmed > 0 && n < retained {
			return nil, &stypes.TrimmedDataAccessException{Message: aws.String("The requested sequence number " + seqGiven + " is beyond the trim horizon of shard " + id)}
		}
		i := sort.Search(len(sh.recs), func(i int) bool {
			if in.ShardIteratorType == stypes.ShardIteratorTypeAfterSequenceNumber {
				return seqOf(sh.recs[i]) > n
			}
			return seqOf(sh.recs[i]) >= n
		})
		pos = sh.trimmed + i
	}
	return &dynamodbstreams.GetShardIteratorOutput{ShardIterator: aws.String(db.iterator(t.stream.arn, id, pos, t.streamNow()))}, nil
}

func seqOf(r stypes.Record) int64 {
	n, _ := parseSeq(aws.ToString(r.Dynamodb.SequenceNumber))
	return n
}

// lastSeq is the last sequence number a shard may hold: its end once
// closed; an open shard takes every later one.
func lastSeq(sh *shard) int64 {
	if sh.closed {
		return sh.end
	}
	return math.MaxInt64
}

// GetRecords reads a shard from an iterator: up to Limit records (1,000)
// and 1 MB, and the iterator to go on from (none at the end of a closed
// shard).
func (db *DB) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	it := aws.ToString(in.ShardIterator)
	switch {
	case it == "":
		return nil, validation("1 validation error detected: Value null at 'shardIterator' failed to satisfy constraint: Member must not be null")
	case len(it) > 2048:
		return nil, validation("1 validation error detected: Value at 'shardIterator' failed to satisfy constraint: Member must have length less than or equal to 2048")
	}
	limit := 1000
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 1000 {
			return nil, validation(fmt.Sprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 1000 and greater than or equal to 1", *in.Limit))
		}
		limit = int(*in.Limit)
	}
	p, ok := db.parseIterator(it)
	if !ok {
		return nil, validation("Invalid ShardIterator")
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	t, err := db.streamTable(p.arn)
	if err != nil {
		return nil, err
	}
	now := t.streamNow()
	if now.Sub(p.issued) > iteratorLife {
		return nil, &stypes.ExpiredIteratorException{Message: aws.String(fmt.Sprintf("Iterator expired. The iterator was created at time %s while right now it is %s.",
			p.issued.UTC().Format(time.RFC1123), now.UTC().Format(time.RFC1123)))}
	}
	sh := t.stream.shard(p.shard)
	if sh == nil {
		return nil, &stypes.ResourceNotFoundException{Message: aws.String("Requested resource not found: Shard does not exist")}
	}
	if p.pos < sh.trimmed {
		return nil, &stypes.TrimmedDataAccessException{Message: aws.String("The operation attempted to read past the oldest stream record in shard " + sh.id)}
	}
	i := p.pos - sh.trimmed
	out := &dynamodbstreams.GetRecordsOutput{Records: []stypes.Record{}}
	size := int64(0)
	for ; i < len(sh.recs) && len(out.Records) < limit; i++ {
		size += aws.ToInt64(sh.recs[i].Dynamodb.SizeBytes)
		if size > maxRecordsBytes && len(out.Records) > 0 {
			break
		}
		out.Records = append(out.Records, sh.recs[i])
	}
	if !sh.closed || i < len(sh.recs) {
		out.NextShardIterator = aws.String(db.iterator(p.arn, p.shard, sh.trimmed+i, now))
	}
	return out, nil
}

// toStreamItem is an item in the Streams API's own attribute value types,
// which are distinct Go types from DynamoDB's with the same shapes.
func toStreamItem(item map[string]types.AttributeValue) map[string]stypes.AttributeValue {
	out := make(map[string]stypes.AttributeValue, len(item))
	for k, v := range item {
		out[k] = toStreamValue(v)
	}
	return out
}

func toStreamValue(av types.AttributeValue) stypes.AttributeValue {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return &stypes.AttributeValueMemberS{Value: v.Value}
	case *types.AttributeValueMemberN:
		return &stypes.AttributeValueMemberN{Value: v.Value}
	case *types.AttributeValueMemberB:
		return &stypes.AttributeValueMemberB{Value: append([]byte(nil), v.Value...)}
	case *types.AttributeValueMemberBOOL:
		return &stypes.AttributeValueMemberBOOL{Value: v.Value}
	case *types.AttributeValueMemberNULL:
		return &stypes.AttributeValueMemberNULL{Value: v.Value}
	case *types.AttributeValueMemberSS:
		return &stypes.AttributeValueMemberSS{Value: append([]string(nil), v.Value...)}
	case *types.AttributeValueMemberNS:
		return &stypes.AttributeValueMemberNS{Value: append([]string(nil), v.Value...)}
	case *types.AttributeValueMemberBS:
		return &stypes.AttributeValueMemberBS{Value: append([][]byte(nil), v.Value...)}
	case *types.AttributeValueMemberM:
		return &stypes.AttributeValueMemberM{Value: toStreamItem(v.Value)}
	case *types.AttributeValueMemberL:
		l := make([]stypes.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = toStreamValue(e)
		}
		return &stypes.AttributeValueMemberL{Value: l}
	}
	return nil
}
