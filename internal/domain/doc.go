// Package model holds dynascope's domain logic: key values, key conditions
// and their readable descriptions, key paths, version names and time keys.
// It does no I/O and knows nothing of the terminal.
package domain
