package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/pages"
)

// modeKey switches the partition on top to another mode: each tab's key
// (1–5) picks it, tab and shift+tab step through those that apply (the
// tabs are pages.Modes, the registry). A mode that does not
// apply says why and reads nothing. It reports whether it took the key.
func (m *Model) modeKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	p, ok := m.top().(common.Moded)
	if o, open := m.top().(common.Overlayer); !ok || m.top().Capturing() || m.fatal != nil || open && o.Overlay() {
		return nil, false
	}
	tabs := p.Modes()
	cur := -1
	for i, t := range tabs {
		if t.Name == m.top().Mode() {
			cur = i
		}
	}
	target := -1
	for i, t := range tabs {
		if key.Matches(msg, t.Key) {
			target = i
		}
	}
	k := m.c.Keys
	if step := 0; target < 0 && cur >= 0 {
		switch {
		case key.Matches(msg, k.NextMode):
			step = 1
		case key.Matches(msg, k.PrevMode):
			step = len(tabs) - 1
		default:
			return nil, false
		}
		for i := 1; i < len(tabs); i++ {
			if j := (cur + i*step) % len(tabs); tabs[j].Off == "" {
				target = j
				break
			}
		}
		if target < 0 {
			m.say("no other mode applies here")
			return nil, true
		}
	}
	if target < 0 {
		return nil, false
	}
	if target == cur {
		return nil, true
	}
	if tabs[target].Off != "" {
		m.sayWhy("No "+tabs[target].Name+" mode here", tabs[target].Off)
		return nil, true
	}
	if tabs[target].Name == pages.ModeVersions {
		if probe := pages.ProbeVersions(m.top()); probe != nil {
			// Its answer opens Versions, or says why not (a step goes on
			// to the next mode).
			return func() tea.Msg {
				answer, _ := probe().(pages.VersionsProbedMsg)
				answer.Asked = msg
				return answer
			}, true
		}
	}
	return m.switchMode(p, tabs[target].Name), true
}

// versionsProbed opens Versions where the probe found a key that begins
// like a revision, or says why not; the tab is decided from then on.
func (m *Model) versionsProbed(msg pages.VersionsProbedMsg) tea.Cmd {
	if msg.Err != nil {
		m.fail(msg.Err, 0)
		return nil
	}
	p, ok := m.top().(common.Moded)
	if !ok || !pages.NoteVersionsProbe(m.top(), msg) {
		return nil // another place by now
	}
	for _, t := range p.Modes() {
		if t.Name != pages.ModeVersions {
			continue
		}
		if t.Off != "" && !key.Matches(msg.Asked, m.c.Keys.Versions) {
			cmd, _ := m.modeKey(msg.Asked) // tab stepped onto it: on to the next mode
			return cmd
		}
		if t.Off != "" {
			m.sayWhy("No "+t.Name+" mode here", t.Off)
			return nil
		}
		return m.switchMode(p, t.Name)
	}
	return nil
}

// switchMode shows the same place in another mode. The page below, when
// it is that place in that mode, is where esc would go anyway: it comes
// back as it was, without reading again. Otherwise a mode page opened on
// top of its place's first page is replaced, so that esc climbs out of
// the place rather than back through every mode visited.
func (m *Model) switchMode(p common.Moded, name string) tea.Cmd {
	m.lastErr = nil
	m.rememberViews() // a mode switch is a move: < comes back to this mode
	if n := len(m.stack); n >= 2 {
		if below, ok := m.stack[n-2].(common.Moded); ok && below.Place() == p.Place() {
			if m.stack[n-2].Mode() == name {
				return m.pop() // which leaves the page on top
			}
			next := p.ModePage(name)
			if next == nil {
				return nil
			}
			m.leave()
			m.forget(m.top())
			m.stack[n-1] = next
			return m.startTop()
		}
	}
	next := p.ModePage(name)
	if next == nil {
		return nil
	}
	m.leave()
	return m.push(next)
}

// leave stops what the page on top runs in the background, as it is left
// (another mode takes its place, or esc pops it): following stays with the
// tab it was started in and ends there, and a long read nobody will see
// (an item's changes) stops.
func (m *Model) leave() {
	if l, ok := m.top().(common.Leaver); ok {
		l.Leave()
	}
}

// How much the header's tabs shrink where the breadcrumb leaves them
// little room: their names, then the dimmed ones' numbers alone (they do
// not apply; pressed, they say why), then every one's but the active's.
const (
	tabsNamed = iota
	tabsActingNamed
	tabsNumbered
)

// tabs are the mode tabs of the header: the active one highlighted, those
// that do not apply dimmed, shrunk to their numbers as far as shrink says.
func (m *Model) tabs(shrink int) string {
	st := &m.styles
	p, ok := m.top().(common.Moded)
	if !ok {
		if mode := m.top().Mode(); mode != "" {
			return st.TabActive.Render(mode)
		}
		return ""
	}
	var out []string
	for _, t := range p.Modes() {
		label := t.Name
		if keys := t.Key.Keys(); len(keys) > 0 {
			label = keys[0] + " " + t.Name
			if t.Name != m.top().Mode() && (shrink == tabsNumbered || shrink == tabsActingNamed && t.Off != "") {
				label = keys[0]
			}
		}
		switch {
		case t.Name == m.top().Mode():
			out = append(out, st.TabActive.Render(label))
		case t.Off != "":
			out = append(out, st.TabDisabled.Render(label))
		default:
			out = append(out, st.Tab.Render(label))
		}
	}
	return strings.Join(out, "")
}

// modeReasons are the full help's lines on the modes that do not apply,
// wrapped to the terminal.
func (m *Model) modeReasons() []string {
	p, ok := m.top().(common.Moded)
	if !ok {
		return nil
	}
	var out []string
	for _, t := range p.Modes() {
		if t.Off == "" {
			continue
		}
		// Wrapped, not cut: the reason is the help's answer to a dimmed tab.
		for _, l := range strings.Split(common.Wrap(t.Name+" does not apply here: "+t.Off, max(20, m.w)), "\n") {
			out = append(out, m.styles.Dim.Render(l))
		}
	}
	return out
}
