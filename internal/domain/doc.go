// Package domain holds dynascope's domain logic: key values, key conditions
// and their readable descriptions, key paths, version names, time keys,
// filters and masks. It does no I/O and knows nothing of the terminal.
package domain
