// Package list is the explorer's paged list: rows read a page at a time
// under a request that can be cancelled and retried, the window of rows
// held (the farthest let go and read again), the end read first after G,
// the title's count and state, a failure or cancel said where the rows
// would be, the loaded rows' sort and what search sees of them. A list
// page adds its columns, its reads and its own keys.
package list
