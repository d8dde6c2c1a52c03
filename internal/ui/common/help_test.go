package common

import (
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestKeysHelpShowsWhatActs: the help line and ? help are both derived
// from one list of keys; a key turned off is in neither.
func TestKeysHelpShowsWhatActs(t *testing.T) {
	b := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, k)) }
	ks := Keys{Line(0, b("up")), More(0, b("pgup")), Line(1, On(b("enter"), false)), Line(2, b("esc")), More(1, b("r"))}
	short := ks.ShortHelp()
	if len(short) != 2 || short[0].Help().Key != "up" || short[1].Help().Key != "esc" {
		t.Fatalf("short help: %v", short)
	}
	full := ks.FullHelp()
	if len(full) != 3 || len(full[0]) != 2 || len(full[1]) != 1 || full[1][0].Help().Key != "r" || full[2][0].Help().Key != "esc" {
		t.Fatalf("full help: %v", full)
	}
}
