package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// tableMask is --mask joined with the table's mask = [...] from the
// configuration, or nil when neither names anything.
func (g *globals) tableMask(table string) (*domain.Mask, error) {
	flagged, err := domain.ParseMask(g.mask)
	if err != nil {
		return nil, usage("write --mask Email,Owner.phone", "--%v", err)
	}
	conf, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	fromConf, _ := domain.ParseMask(conf.Table(table).Mask) // ParseConfig checked it
	return flagged.Union(fromConf), nil
}

// typedWords are a parse error's words about a value typed for a key
// attribute, the value itself left out where the mask hides the
// attribute: a typed value is as secret as the values it stands beside.
func typedWords(err error, typed string, hidden bool) string {
	if !hidden {
		return err.Error()
	}
	return strings.ReplaceAll(err.Error(), strconv.Quote(typed), "(masked)")
}

// masking is the masked layer over c for table (its key attributes
// learnt from info), or nil where nothing is masked. A command reads the
// real values for its own decisions and shows everything through it: it
// is the one place values become stand-ins.
func masking(c dynamo.Client, mask *domain.Mask, info dynamo.TableInfo) *dynamo.Masked {
	if mask == nil {
		return nil
	}
	m := dynamo.NewMasked(c, func(string) *domain.Mask { return mask }, nil)
	m.Learn(info)
	return m
}

// filterShown is q's filter as stderr may say it (the values typed
// against masked attributes are stand-ins).
func filterShown(m *dynamo.Masked, q domain.KeyQuery) string {
	return export.OneLine(domain.FormatFilter(m.ShownQuery(q, "").Filter))
}

// noteUnseen says, once a read is done, which masked attributes never
// appeared in the items shown: a note, not an error (a typo shows here).
// Under a filter only the matches were seen, so the note speaks of them;
// before any item is shown it says nothing, having nothing to go by.
func noteUnseen(w io.Writer, m *dynamo.Masked, table string, filtered bool) {
	var unseen []string
	for _, a := range m.Unseen(table) {
		unseen = append(unseen, export.OneLine(a))
	}
	what := "no item read has it"
	if filtered {
		what = "no item that matched has it"
	}
	if len(unseen) > 0 {
		fmt.Fprintf(w, "note: --mask %s: %s\n", strings.Join(unseen, ", "), what)
	}
}
