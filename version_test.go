package main

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: a stamped version wins; a build without one reports what
// the go command recorded (go install's module version, a clone's commit)
// rather than "dev", which says nothing about what is running.
func TestVersionOf(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"stamped by make build", "v1.4.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, "v1.4.0"},
		{"go install at a tag", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, "v1.3.0"},
		{"go install at a commit", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261124051234-3ff46be0a1b2"}}, "v0.0.0-20261124051234-3ff46be0a1b2"},
		{"built in a clean clone", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("3ff46be0a1b2c3d4e5f6", "false")}, "dev-3ff46be0a1b2"},
		{"built with changes", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("3ff46be0a1b2c3d4e5f6", "true")}, "dev-3ff46be0a1b2+dirty"},
		{"built without VCS information", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build information", "dev", nil, "dev"},
	} {
		if got := versionOf(tc.stamped, tc.info, tc.info != nil); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
