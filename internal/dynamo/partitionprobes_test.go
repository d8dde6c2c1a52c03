package dynamo_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// read is one Scan answer of the partitions walk: the keys it held under
// each partition, in scan order, and what it cost.
type read struct {
	runs []int
	rcu  float64
}

// page is the answer: each run's partition its own key, more to come.
func (r read) page(from int) dynamo.Page {
	var items []dynamo.Item
	for i, n := range r.runs {
		for k := range n {
			items = append(items, dynamo.Item{
				"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("p%03d", from+i)},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("s%04d", k)}})
		}
	}
	return dynamo.Page{Items: items, LastKey: items[len(items)-1], Cost: dynamo.Cost{Requests: 1, RCU: r.rcu}}
}

// TestPartitionProbesSizedToAReadUnit: after each read the walk jumps
// with a probe of as many keys as one read unit holds (from what the
// reads so far cost, growing while a full probe costs 0.5), or reads on
// in 1,000-key pages where the partitions it saw whole average at most
// two read units.
func TestPartitionProbesSizedToAReadUnit(t *testing.T) {
	type step struct {
		read
		jump  bool
		limit int32
	}
	for _, tc := range []struct {
		name  string
		first int32 // the first read's keys (0: FirstPartitions's)
		steps []step
	}{
		{"large partitions of 350-byte items: a jump and a probe of 11 keys each", 0, []step{
			{read{[]int{100}, 4.5}, true, 11}, {read{[]int{11}, 0.5}, true, 11}, {read{[]int{11}, 0.5}, true, 11}}},
		{"small items: probes grow while they cost 0.5, up to 100 keys", 0, []step{
			{read{[]int{100}, 0.5}, true, 100}, {read{[]int{100}, 0.5}, true, 100}}},
		{"a first read of one key: probes double until one costs more", 1, []step{
			{read{[]int{1}, 0.5}, true, 2}, {read{[]int{2}, 0.5}, true, 4}, {read{[]int{4}, 1.0}, true, 2}, {read{[]int{2}, 0.5}, true, 2}}},
		{"mid-size partitions (one whole, under two units): bulk pages", 0, []step{
			{read{[]int{60, 40}, 1.0}, false, 1000}, {read{[]int{30, 60, 55, 70, 45, 60, 50, 80, 65, 70, 60, 75, 70, 60, 90}, 8.0}, false, 1000}}},
		{"the same keys, large items (60 keys are six units): jump", 0, []step{
			{read{[]int{60, 40}, 4.5}, true, 11}}},
		{"a probe that holds a whole partition and the next: bulk pages", 0, []step{
			{read{[]int{100}, 4.5}, true, 11}, {read{[]int{4, 7}, 0.5}, false, 1000}}},
		{"a bulk page that holds no partition whole (its first may have begun before it): jump", 0, []step{
			{read{[]int{20, 20, 20, 20, 20}, 4.5}, false, 1000}, {read{[]int{900, 100}, 44.0}, true, 11}}},
		{"a bulk page of large partitions seen whole (over two units each): jump", 0, []step{
			{read{[]int{20, 20, 20, 20, 20}, 4.5}, false, 1000}, {read{[]int{10, 400, 400, 190}, 44.0}, true, 11}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := dynamo.FirstPartitions("T", dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}})
			if r.Limit != 100 || r.Probing() {
				t.Fatalf("first read: limit %d, probing %v; want 100 keys, no probe", r.Limit, r.Probing())
			}
			if tc.first > 0 {
				r.Limit = tc.first
			}
			from := 0
			for i, s := range tc.steps {
				next, jumped, ok := dynamo.NextPartitions(r, s.page(from))
				if !ok || jumped != s.jump || next.Limit != s.limit || next.Probing() != s.jump {
					t.Fatalf("after read %d %v (%.1f RCU): jumped %v, limit %d, probing %v; want jumped %v, limit %d",
						i+1, s.runs, s.rcu, jumped, next.Limit, next.Probing(), s.jump, s.limit)
				}
				r, from = next, from+len(s.runs)
			}
		})
	}
}
