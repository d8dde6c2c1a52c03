package dynamo

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// A partitions listing stopped at its budget goes on from where it
// stopped: the token is the listing's next request (PartitionsResult's
// Next) whole, what it knows of its probes' size, its open segments and
// the partitions it delivered before it split, so the listing read on
// lists no partition twice and sizes its reads as it was about to. The
// table, index and keys come from the command; a fingerprint of them is
// in the token, so a token of another table is refused, and a checksum
// ends it, as a search's does (resume.go).

// partitionsState is a PartitionsRequest's state as a token holds it.
type partitionsState struct {
	Start        map[string]any    `json:"s,omitempty"`
	Past         map[string]any    `json:"j,omitempty"` // a start past this partition's keys (partitionEnd), written short
	Resume       map[string]any    `json:"r,omitempty"`
	Limit        int32             `json:"l"`
	NoJump       bool              `json:"nj,omitempty"`
	Probe        probeSizing       `json:"p"`
	Segment      int32             `json:"sg,omitempty"`
	Total        int32             `json:"ts,omitempty"`
	Segments     []partitionsState `json:"ss,omitempty"`
	Whole        []string          `json:"bw,omitempty"`
	Skip         map[string]int    `json:"bs,omitempty"`
	Before       bool              `json:"b,omitempty"`
	Opening      bool              `json:"o,omitempty"`
	SplitAfter   bool              `json:"sa,omitempty"`
	PerPartition int32             `json:"pp,omitempty"`
	SizeBytes    int64             `json:"sb,omitempty"`
	ItemCount    int64             `json:"ic,omitempty"`
	ReadKeys     int64             `json:"rk,omitempty"`
	ReadRCU      float64           `json:"rr,omitempty"`
	HeavyRest    bool              `json:"h,omitempty"`
}

func stateOf(r PartitionsRequest) partitionsState {
	s := partitionsState{Limit: r.Limit, NoJump: r.NoJump, Probe: r.probe, Segment: r.Segment, Total: r.TotalSegments,
		Opening: r.opening, SplitAfter: r.splitAfter, PerPartition: r.perPartition, SizeBytes: r.SizeBytes, ItemCount: r.ItemCount,
		ReadKeys: r.readKeys, ReadRCU: r.readRCU, HeavyRest: r.heavyRest}
	if past := pastPartition(r); past != nil {
		s.Past = WireItem(past)
	} else if r.Start != nil {
		s.Start = WireItem(r.Start)
	}
	if r.Resume != nil {
		s.Resume = WireItem(r.Resume)
	}
	for _, seg := range r.Segments {
		s.Segments = append(s.Segments, stateOf(seg))
	}
	if r.before != nil {
		s.Before, s.Skip = true, r.before.skip
		for k := range r.before.whole {
			s.Whole = append(s.Whole, k)
		}
	}
	return s
}

// request is s laid over base (the table, index and keys the command
// gives), refusing what no listing could have written.
func (s partitionsState) request(base PartitionsRequest, depth int) (PartitionsRequest, error) {
	bad := fmt.Errorf("is not a resume token of partitions, or was cut or edited")
	if s.Limit < 1 || s.Limit > partitionBulkKeys || s.Probe.Keys < 0 || s.Segment < 0 || s.Total < 0 || s.Segment >= max(s.Total, 1) ||
		s.SizeBytes < 0 || s.ItemCount < 0 || s.ReadKeys < 0 || s.ReadRCU < 0 || depth > 1 || len(s.Segments) > listingSegments {
		return base, bad
	}
	r := base
	r.Limit, r.NoJump, r.probe, r.Segment, r.TotalSegments = s.Limit, s.NoJump, s.Probe, s.Segment, s.Total
	r.opening, r.splitAfter, r.perPartition = s.Opening, s.SplitAfter, s.PerPartition
	r.SizeBytes, r.ItemCount, r.readKeys, r.readRCU, r.heavyRest = s.SizeBytes, s.ItemCount, s.ReadKeys, s.ReadRCU, s.HeavyRest
	var err error
	if r.Start, err = wireKey(s.Start); err != nil {
		return base, err
	}
	if s.Past != nil {
		past, err := wireKey(s.Past)
		if err != nil || s.Start != nil || r.Key.SK == nil || len(past) != 1 || past[r.Key.PK.Name] == nil {
			return base, bad
		}
		r.Start = partitionEnd(r, past[r.Key.PK.Name])
	}
	if r.Resume, err = wireKey(s.Resume); err != nil {
		return base, err
	}
	if s.Before {
		r.before = &readBefore{whole: map[string]bool{}, skip: map[string]int{}}
		for _, k := range s.Whole {
			r.before.whole[k] = true
		}
		for k, n := range s.Skip {
			r.before.skip[k] = n
		}
	}
	for _, seg := range s.Segments {
		sr, err := seg.request(base, depth+1)
		if err != nil {
			return base, err
		}
		r.Segments = append(r.Segments, sr)
	}
	return r, nil
}

// pastPartition is the partition key of r's start where that start is a
// jump past the partition's keys (partitionEnd: its sort key 1 KB of the
// largest character), which a token writes as the partition key alone;
// else nil.
func pastPartition(r PartitionsRequest) Item {
	if r.Start == nil || r.Key.SK == nil || r.Start[r.Key.PK.Name] == nil {
		return nil
	}
	pk := r.Start[r.Key.PK.Name]
	a, _ := json.Marshal(WireItem(r.Start))
	b, _ := json.Marshal(WireItem(partitionEnd(r, pk)))
	if string(a) != string(b) {
		return nil
	}
	return Item{r.Key.PK.Name: pk}
}

// wireKey is a start key a token holds (nil: none).
func wireKey(w map[string]any) (Item, error) {
	if w == nil {
		return nil, nil
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	return ParseResumeToken(base64.RawURLEncoding.EncodeToString(b))
}

// partitionsFingerprint names what a listing reads: a token of another
// table, index or key is refused.
func partitionsFingerprint(r PartitionsRequest) string {
	names := []string{"partitions", r.Table, r.Index, r.Key.PK.Name, string(r.Key.PK.Type)}
	if r.Key.SK != nil {
		names = append(names, r.Key.SK.Name, string(r.Key.SK.Type))
	}
	return fmt.Sprintf("%q", strings.Join(names, "\x00"))
}

// partitionsToken is what a partitions token holds, before its checksum.
type partitionsToken struct {
	Fingerprint string          `json:"f"`
	State       partitionsState `json:"n"`
}

// PartitionsToken is the word for a listing that goes on with next (a
// PartitionsResult's Next).
func PartitionsToken(next PartitionsRequest) string {
	b, _ := json.Marshal(partitionsToken{partitionsFingerprint(next), stateOf(next)})
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(append(b, sum[:tokenSumBytes]...))
}

// ResumePartitions is the listing first (FirstPartitions or
// FirstIndexPartitions, for the table, index and keys) going on where
// the token says an earlier one stopped.
func ResumePartitions(first PartitionsRequest, token string) (PartitionsRequest, error) {
	bad := fmt.Errorf("is not a resume token of partitions, or was cut or edited (copy it whole from the message that gave it)")
	b, ok := tokenContent(token)
	if !ok {
		return first, bad
	}
	var t partitionsToken
	if err := json.Unmarshal(b, &t); err != nil || t.Fingerprint == "" {
		return first, bad
	}
	if t.Fingerprint != partitionsFingerprint(first) {
		return first, fmt.Errorf("was given by a listing of another table or index")
	}
	base := first
	base.Start, base.Resume, base.Segments, base.before = nil, nil, nil, nil
	r, err := t.State.request(base, 0)
	if err != nil {
		return first, bad
	}
	return r, nil
}

// PartitionsTokenWhole reports whether token reads as a partitions token
// as it was written (its checksum holds), before the table it names is
// described.
func PartitionsTokenWhole(token string) bool {
	b, ok := tokenContent(token)
	var t partitionsToken
	return ok && json.Unmarshal(b, &t) == nil && strings.HasPrefix(t.Fingerprint, `"partitions\x00`)
}
