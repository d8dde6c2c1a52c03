package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// commandIO is what every command's options carry besides its own flags:
// the shared flags, where to write, and which flags were given. A
// command's RunE only fills it (bind) and calls its run function, which
// checks every flag before it connects; tests call the run functions with
// options built by hand.
type commandIO struct {
	g              *globals
	stdout, stderr io.Writer
	// changed reports whether a flag was given: flags override the
	// configuration only then.
	changed func(flag string) bool
}

// bind fills the options' shared part from the command being run.
func (c *commandIO) bind(cmd *cobra.Command, g *globals) {
	c.g, c.stdout, c.stderr, c.changed = g, cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Flags().Changed
}

// given reports whether flag was given; options built by hand give none.
func (c *commandIO) given(flag string) bool {
	return c.changed != nil && c.changed(flag)
}
