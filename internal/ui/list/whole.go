package list

// What a list read whole, or known without a read, adds to Paged: an
// answer that is every row so far (a partition's versions, a stream's
// changes, a walk's children as it finds them), rows given by another
// view's read (a timeline of the versions read), and the rows listed in
// another order (a sort).

// Replace takes the answer to request id as the whole list: its rows in
// place of those listed, even with its error (a read that stops hands back
// what it read before it), and whether more may come after them. It
// reports false for a stale answer, which the page drops.
func (l *Paged[T]) Replace(id int, rows []T, more bool, err error) bool {
	if !l.Status.Answer(id, err) {
		return false
	}
	l.fresh, l.more = false, more
	l.Set(rows)
	return true
}

// Snapshot takes what request id found so far as the whole list (a walk
// hands back all it found each time): listed at once, counted as "≥",
// while the read goes on to its answer. It reports false for a stale one.
func (l *Paged[T]) Snapshot(id int, rows []T) bool {
	if id != l.Req.ID() || !l.Req.InFlight() {
		return false
	}
	l.fresh, l.answered, l.more = false, true, true
	l.Set(rows)
	return true
}

// Given lists rows known without a read of the list's own (another view
// read them): whole, counted, nothing in flight.
func (l *Paged[T]) Given(rows []T) {
	l.Req.Stop()
	l.Fail.Clear()
	l.began, l.answered, l.fresh, l.more = true, true, false, false
	l.Set(rows)
}

// Set lists rows in place of those listed, leaving the read's state as it
// is: the same rows in another order (a sort), or the page's own change.
func (l *Paged[T]) Set(rows []T) {
	l.rows = nil
	l.Add(rows...)
}

// Rows are the rows listed, in their order on screen; the page reads them
// and does not keep the slice past a change.
func (l *Paged[T]) Rows() []T { return l.rows }

// loaded is how many rows a failure says were loaded before it: the rows
// listed, or Words.Loaded's count where a row is not one of what the list
// counts (a walk's child both an item and a prefix is two rows).
func (l *Paged[T]) loaded() int {
	if l.words.Loaded != nil {
		return l.words.Loaded()
	}
	return len(l.rows)
}

// failure is the list's Failure as its title and rows say it: after a
// cancel, what r does (Words.Again).
func (l *Paged[T]) failure() Failure {
	return l.Fail.Again(l.words.Again)
}
