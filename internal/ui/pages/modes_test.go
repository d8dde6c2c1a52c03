package pages

import (
	"slices"
	"testing"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/keymap"
	"github.com/dynascope/dynascope/internal/ui/common"
)

// TestModesComeFromTheRegistry: the tabs are Modes in order, each with its
// key as bound (a rebinding moves the tab's key too), and tab is in the
// help only where another mode applies.
func TestModesComeFromTheRegistry(t *testing.T) {
	k := keymap.Default()
	k.TimeMode.SetKeys("T")
	c := &common.Common{Keys: k}
	info := dynamo.TableInfo{Name: "t", Key: dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "pk", Type: domain.TypeS}}}
	tabs := place{c: c, info: info}.modes()
	if len(tabs) != len(Modes) {
		t.Fatalf("%d tabs, %d modes", len(tabs), len(Modes))
	}
	for i, m := range Modes {
		if tabs[i].Name != m.Name || !slices.Equal(tabs[i].Key.Keys(), m.Key(k).Keys()) {
			t.Errorf("tab %d is %s %v, want %s %v", i, tabs[i].Name, tabs[i].Key.Keys(), m.Name, m.Key(k).Keys())
		}
	}
	if got := tabs[3].Key.Keys(); !slices.Equal(got, []string{"T"}) {
		t.Errorf("Time's key: %v, want the rebound T", got)
	}
	// No sort key: only Items applies (and Changes has no stream).
	for _, tab := range tabs {
		if (tab.Off == "") != (tab.Name == ModeItems) {
			t.Errorf("%s: off %q", tab.Name, tab.Off)
		}
	}
	if got := modeStep(k, tabs, ModeItems); len(got) != 0 {
		t.Errorf("tab in the help where no other mode applies: %v", got)
	}
	if got := modeStep(k, tabs, ModeTree); len(got) != 1 {
		t.Errorf("tab not in the help where Items applies: %v", got)
	}
}
