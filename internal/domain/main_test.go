package domain

import (
	"flag"
	"os"
	"testing"
)

// fuzzMinimizeRuns bounds the runs the fuzzing engine spends minimizing
// each input it finds, unless -fuzzminimizetime says otherwise. Its
// default, a minute an input, is spent on every new interesting input
// too, and those runs are not counted (golang/go#51484): from a fresh
// cache FuzzChildWalk stood at "0 execs/s" for 8 of the 11 reports of a
// 30 s run. A failing input is minimized as far as this many runs take
// it; -fuzzminimizetime 60s minimizes one further.
const fuzzMinimizeRuns = "2000x"

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.fuzzminimizetime" })
	if !given {
		if err := flag.Set("test.fuzzminimizetime", fuzzMinimizeRuns); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
