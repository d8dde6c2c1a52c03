// Package conformance holds the suite that runs identical requests against
// the embedded backend and against dynalite and requires identical answers.
package conformance
