package cli

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// checkTerminal refuses to open the explorer without a terminal on both
// sides: with stdout redirected it would write its escape codes into the
// file, and with no terminal on stdin the library fails with a raw
// message. Tests, which run the explorer on their own input and output,
// swap it.
var checkTerminal = func() error { return needTerminal(os.Stdin, os.Stdout) }

func needTerminal(in, out *os.File) error {
	for _, f := range []struct {
		file *os.File
		what string
	}{{in, "stdin"}, {out, "stdout"}} {
		if f.file == nil || !term.IsTerminal(f.file.Fd()) {
			return usage("for output use a command: dynascope items …, dynascope tables … (dynascope --help lists them)",
				"the explorer needs a terminal, and %s is not one", f.what)
		}
	}
	return nil
}
