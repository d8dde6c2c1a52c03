package common

import (
	"fmt"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// TableLoad is table's background load, when it is not (or not yet)
// complete: ok is false for a table that is whole.
func (c *Common) TableLoad(table string) (dynamo.TableLoad, bool) {
	if c.Load == nil {
		return dynamo.TableLoad{}, false
	}
	l, ok := c.Load.Table(table)
	if !ok || l.State == dynamo.LoadComplete {
		return dynamo.TableLoad{}, false
	}
	return l, true
}

// LoadMark says in a few words how far an incomplete table's load is:
// "loading (1,234 items so far)", "PARTIAL: 30 items loaded, stopped",
// "FAILED to load (…)". "" for a table that is whole.
func (c *Common) LoadMark(table string) string {
	l, ok := c.TableLoad(table)
	if !ok {
		return ""
	}
	switch l.State {
	case dynamo.LoadRunning:
		return fmt.Sprintf("loading (%s items so far)", Thousands(l.Items))
	case dynamo.LoadStopped:
		return fmt.Sprintf("PARTIAL: %s items loaded, stopped", Thousands(l.Items))
	}
	return fmt.Sprintf("FAILED to load (%s items read before)", Thousands(l.Items))
}

// All is what a list read to its end is, in its title: "all", or, for a
// table whose --data load was stopped, "all of a PARTIAL load", so that a
// list never claims a table that is only partly there.
func (c *Common) All(table string) string {
	if l, ok := c.TableLoad(table); ok && l.State == dynamo.LoadStopped {
		return "all of a PARTIAL load"
	}
	return "all"
}
