package pages

import (
	"errors"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// endedLoad is a --data load in a given state.
type endedLoad struct{ s dynamo.LoadStatus }

func (l endedLoad) Status() dynamo.LoadStatus             { return l.s }
func (l endedLoad) Table(string) (dynamo.TableLoad, bool) { return dynamo.TableLoad{}, false }
func (l endedLoad) Stop()                                 {}

// TestTablesEmptySaysWhy: an empty table list from --data names the load's
// own cause; "check the region and the endpoint" is for servers only.
func TestTablesEmptySaysWhy(t *testing.T) {
	for _, c := range []struct {
		load dynamo.DataLoad
		want string
	}{
		{nil, "Check the region and the endpoint"},
		{endedLoad{dynamo.LoadStatus{Ended: true, Err: errors.New("scan.json line 1: unexpected end")}}, "loading --data failed: scan.json line 1"},
		{endedLoad{dynamo.LoadStatus{}}, "still loading"},
		{endedLoad{dynamo.LoadStatus{Ended: true, Stopped: true}}, "stopped"},
		{endedLoad{dynamo.LoadStatus{Ended: true}}, "No tables in the --data files"},
	} {
		got := (&Tables{c: &common.Common{Load: c.load}}).emptyText()
		if !strings.Contains(got, c.want) || (c.load != nil && strings.Contains(got, "region")) {
			t.Errorf("%+v: %q, want %q", c.load, got, c.want)
		}
	}
}
