package servertest

import (
	"sync"
	"testing"
)

// Server is a started server program, as dynalitetest and mototest wrap
// it.
type Server interface{ Stop() }

// Start launches a server for one test, stopped when the test ends; one
// that cannot start stops the test (Unavailable: name and fix say which
// program and the command that gets it).
func Start[S Server](tb testing.TB, name, fix string, launch func() (S, error)) S {
	tb.Helper()
	s, err := launch()
	if err != nil {
		Unavailable(tb, name, err, fix)
	}
	tb.Cleanup(s.Stop)
	return s
}

// Shared is one server for a whole test binary: launched by the first Get,
// stopped by Stop from TestMain after m.Run. A launch that failed stops
// every test that asks (Unavailable), not only the first.
type Shared[S Server] struct {
	Name, Fix string
	Launch    func() (S, error)

	once    sync.Once
	s       S
	err     error
	started bool
}

// Get returns the shared server, launching it on first use.
func (sh *Shared[S]) Get(tb testing.TB) S {
	tb.Helper()
	sh.once.Do(func() {
		sh.s, sh.err = sh.Launch()
		sh.started = sh.err == nil
	})
	if sh.err != nil {
		Unavailable(tb, sh.Name, sh.err, sh.Fix)
	}
	return sh.s
}

// Stop stops the server Get started, if any.
func (sh *Shared[S]) Stop() {
	if sh.started {
		sh.s.Stop()
	}
}
