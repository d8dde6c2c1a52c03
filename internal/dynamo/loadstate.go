package dynamo

// LoadState is where a table being filled from files (--data) stands.
type LoadState int

const (
	// LoadComplete: every item the files hold is stored (the state of any
	// table that was never loading).
	LoadComplete LoadState = iota
	// LoadRunning: items are still arriving; reads wait until they are in.
	LoadRunning
	// LoadStopped: the load was stopped; what was stored is kept and
	// answered from: the table is partial.
	LoadStopped
	// LoadFailed: the load failed; reads return its error.
	LoadFailed
)

// TableLoad is one table's load: its state, the items stored so far, the
// error that ended it (LoadFailed) and how many reads wait for it.
type TableLoad struct {
	State   LoadState
	Items   int
	Err     error
	Waiting int
}

// LoadStatus is a whole background load as the explorer's status bar
// tells it.
type LoadStatus struct {
	Files, FilesTotal int // files begun, files to read
	Items             int
	Skipped           int   // bad items skipped (--skip-bad)
	Bytes             int64 // uncompressed bytes read
	Table             string
	Ended             bool
	Stopped           bool  // ended by Stop: the tables not complete are partial
	Err               error // ended by bad input: the one line a command prints
	Tables            int   // tables known so far
	TablesDone        int   // tables no longer loading
}

// DataLoad is data loading in the background (--data) into the backend the
// explorer reads: each table readable as soon as its items are in.
type DataLoad interface {
	Status() LoadStatus
	// Table is one table's load; false for a table not loaded from files.
	Table(name string) (TableLoad, bool)
	// Stop ends the load, keeping what is stored (marked partial).
	Stop()
}

// LoadFailedError is a read of a table whose --data load failed: the
// load's own error, which no retry of the read can mend.
type LoadFailedError struct {
	Table string
	Err   error
}

func (e *LoadFailedError) Error() string { return e.Err.Error() }
func (e *LoadFailedError) Unwrap() error { return e.Err }
