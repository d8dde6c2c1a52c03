// Package config is the shape of dynascope's configuration file
// (config.toml): parsing and checking it, per-table settings, and the one
// edit the explorer makes to it (a table's columns). Reading the file from
// disk is the command line's job.
package config
