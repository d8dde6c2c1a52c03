package demo

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// The device of AWS's blog example (docs/patterns.md: device logs): three
// records, and `< 1536019200` returns the first two.
const SeedDevice = 123

var SeedDeviceTimestamps = []int64{1310216400, 1535544000, 1536022800}

// BusyDevice holds BusyDeviceEvents events over the 60 days before DemoEnd.
const (
	BusyDevice       = 9000
	BusyDeviceEvents = 50000
)

// DemoEnd is the fixed "now" of the demo data (it never depends on the clock).
var DemoEnd = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

var levels = []string{"INFO", "INFO", "INFO", "WARN", "ERROR"}

func deviceLogs(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(11, 2))
	event := func(dev, ts int64, i int) Item {
		return Item{"DeviceID": num(dev), "Timestamp": num(ts), "EventID": str(fmt.Sprintf("evt-%d-%06d", dev, i)),
			"Level": str(levels[r.IntN(len(levels))]), "Message": str([]string{"boot", "heartbeat", "sensor read", "door open", "temp spike"}[r.IntN(5)]),
			"Temperature": dec(fmt.Sprintf("%.1f", 15+r.Float64()*20))}
	}
	for i, ts := range SeedDeviceTimestamps {
		if err := emit(event(SeedDevice, ts, i)); err != nil {
			return err
		}
	}
	start := DemoEnd.Add(-60 * 24 * time.Hour).Unix()
	step := (DemoEnd.Unix() - start) / BusyDeviceEvents
	for i := 0; i < BusyDeviceEvents; i++ {
		if err := emit(event(BusyDevice, start+int64(i)*step+int64(r.IntN(int(step))), i)); err != nil {
			return err
		}
	}
	for dev := int64(100); dev < 140; dev++ {
		if dev == SeedDevice {
			continue
		}
		t := DemoEnd.Add(-30 * 24 * time.Hour).Unix()
		for i := 0; i < 20+r.IntN(200); i++ {
			t += int64(60 + r.IntN(36000))
			if err := emit(event(dev, t, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// MetricsSeries holds MetricsPoints points with epoch-millisecond keys.
const (
	MetricsSeries = "cpu.web-1"
	MetricsPoints = 20000
)

func metrics(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(13, 3))
	start := DemoEnd.Add(-14 * 24 * time.Hour).UnixMilli()
	for i := 0; i < MetricsPoints; i++ {
		ts := start + int64(i)*60_000 + int64(r.IntN(1000))
		if err := emit(Item{"Series": str(MetricsSeries), "TS": num(ts), "Value": dec(fmt.Sprintf("%.2f", 20+60*r.Float64()))}); err != nil {
			return err
		}
	}
	for _, s := range []string{"cpu.web-2", "mem.web-1"} {
		for i := 0; i < 500; i++ {
			ts := start + int64(i)*600_000
			if err := emit(Item{"Series": str(s), "TS": num(ts), "Value": dec(fmt.Sprintf("%.2f", 100*r.Float64()))}); err != nil {
				return err
			}
		}
	}
	return nil
}

// AuditStream holds ISO-8601 keys (`2026-10-31T23:59:59Z`).
const AuditStream = "prod-api"

func auditLog(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(17, 4))
	t := DemoEnd.Add(-10 * 24 * time.Hour)
	for i := 0; i < 3000; i++ {
		t = t.Add(time.Duration(30+r.IntN(540)) * time.Second)
		if !t.Before(DemoEnd) {
			break
		}
		if err := emit(Item{"Stream": str(AuditStream), "At": str(t.Format("2006-01-02T15:04:05Z")),
			"Actor": str(auditors[r.IntN(len(auditors))]), "Action": str([]string{"login", "deploy", "rollback", "grant", "revoke"}[r.IntN(5)])}); err != nil {
			return err
		}
	}
	return nil
}

// ChatShards are the hot room split across partitions (docs/patterns.md).
var ChatShards = []string{"seattle-1", "seattle-2", "seattle-3", "seattle-4"}

var chatUsers = []string{"amsg", "bob", "carla", "dmitri", "eve", "fatima"}

// chatLayout is the blog's yyyy-MM-dd:HH:mm:ss.
const chatLayout = "2006-01-02:15:04:05"

func chatMessages(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(19, 5))
	room := func(id string, n int, start time.Time) error {
		t := start
		for i := 0; i < n; i++ {
			t = t.Add(time.Duration(5+r.IntN(900)) * time.Second)
			user := chatUsers[r.IntN(len(chatUsers))]
			stamp := t.Format(chatLayout)
			if err := emit(Item{"ChatRoomID": str(id), "MessageID": str(user + "#" + stamp), "TimeUser": str(stamp + "#" + user),
				"Text":      str([]string{"hello", "ship it", "who broke prod?", "lgtm", "coffee?", "rolling back"}[r.IntN(6)]),
				"Reactions": num(int64(r.IntN(8)))}); err != nil {
				return err
			}
		}
		return nil
	}
	for _, shard := range ChatShards {
		if err := room(shard, 5000, time.Date(2018, 8, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			return err
		}
	}
	// The blog's own examples: amsg in August 2018.
	if err := emit(Item{"ChatRoomID": str("portland"), "MessageID": str("amsg#2018-08-29:12:00:00"), "TimeUser": str("2018-08-29:12:00:00#amsg"),
		"Text": str("Hello from the blog"), "Reactions": num(3)}); err != nil {
		return err
	}
	if err := room("portland", 800, time.Date(2018, 7, 20, 0, 0, 0, 0, time.UTC)); err != nil {
		return err
	}
	return room("boston", 600, time.Date(2018, 9, 1, 0, 0, 0, 0, time.UTC))
}
