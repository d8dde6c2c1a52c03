package dynamo

import (
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cost is what one operation spent: requests sent, read capacity consumed
// (as DynamoDB reported it) and wall time.
type Cost struct {
	Requests int
	RCU      float64
	Latency  time.Duration
}

// Add returns the sum of two costs.
func (c Cost) Add(o Cost) Cost {
	return Cost{Requests: c.Requests + o.Requests, RCU: c.RCU + o.RCU, Latency: c.Latency + o.Latency}
}

func capacityUnits(cc *types.ConsumedCapacity) float64 {
	if cc == nil || cc.CapacityUnits == nil {
		return 0
	}
	return *cc.CapacityUnits
}

// Session keeps the running totals of a session: every request made through
// a Metered client is counted here. It is safe for concurrent use.
type Session struct {
	mu    sync.Mutex
	total Cost
	last  time.Duration
}

// Record adds one request's cost to the totals.
func (s *Session) Record(c Cost) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total = s.total.Add(c)
	s.last = c.Latency
}

// Totals returns the session's totals and the latency of the latest request.
func (s *Session) Totals() (total Cost, last time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total, s.last
}
