// Package list is the explorer's list core. A list of one key query reads
// through a Pager: rows read a page at a time under a request that can be
// cancelled and retried, the window of rows held (the farthest let go and
// read again), the end read first after G. Any other list (tables,
// partitions, a walk's children, a statement's answers) is a Paged[T]:
// its rows arriving in pages or parts of one answer. Both share the
// title's count and state, a failure or cancel said where the rows would
// be, the loaded rows' sort and what search sees of them. A list page
// adds its columns, its reads and its own keys.
package list
