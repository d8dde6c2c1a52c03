package ui

// The frame's parts around the page (header, request line, help line,
// status bar) are the same from one key to the next but for what moved:
// each is kept as last drawn, with the plain words it was drawn from, and
// drawn again only when those differ. A burst of 200 page-downs is 200
// frames; styling and measuring the same help line 200 times was a fifth
// of each key's time.

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// drawn is one part of the frame as last drawn, and the key it was drawn
// for: every input of its drawing that can change, as plain text.
type drawn struct {
	key, view string
	ok        bool
	draws     int // how many times it was drawn: a burst's keys draw it once
}

// get is the part for key: as last drawn when key is the same, else
// drawn again.
func (d *drawn) get(key string, draw func() string) string {
	if d.ok && d.key == key {
		return d.view
	}
	d.key, d.view, d.ok = key, draw(), true
	d.draws++
	return d.view
}

// frameMemo is every part kept. Styles are in no key: a new background
// drops them all (forget).
type frameMemo struct {
	header, request, help, helpLine, status drawn
	requestHeight                           struct {
		key string
		n   int
		ok  bool
	}
}

func (f *frameMemo) forget() { *f = frameMemo{} }

// memoKey joins the words a part is drawn from, each after its length:
// two different lists of words never make the same key, whatever bytes
// a value holds.
type memoKey struct{ strings.Builder }

func (k *memoKey) s(parts ...string) *memoKey {
	for _, p := range parts {
		k.WriteString(strconv.Itoa(len(p)))
		k.WriteByte(':')
		k.WriteString(p)
	}
	return k
}

func (k *memoKey) i(n int) *memoKey {
	k.WriteString(strconv.Itoa(n))
	k.WriteByte(0)
	return k
}

func (k *memoKey) b(v bool) *memoKey {
	if v {
		k.WriteByte('1')
	} else {
		k.WriteByte('0')
	}
	return k
}

// bindings adds what the help shows of bs: whether each acts, its keys
// and its words.
func (k *memoKey) bindings(bs []key.Binding) *memoKey {
	k.i(len(bs))
	for _, b := range bs {
		k.b(b.Enabled())
		k.i(len(b.Keys())).s(b.Keys()...)
		k.s(b.Help().Key, b.Help().Desc)
	}
	return k
}

// header is the top line: the brand, the connection, the breadcrumb and
// the mode tabs.
func (m *Model) header() string {
	top := m.top()
	drawnFor := new(memoKey).i(m.w).b(len(m.stack) > 1).s(m.cfg.Connection)
	m.environmentKey(drawnFor)
	cs := top.Crumbs()
	drawnFor.i(len(cs)).s(cs...)
	if table := m.pageTable(); table != "" {
		drawnFor.s(m.c.LoadMark(table))
	}
	drawnFor.s(top.Mode())
	if p, ok := top.(common.Moded); ok {
		tabs := p.Modes()
		drawnFor.i(len(tabs))
		for _, t := range tabs {
			drawnFor.s(t.Name).b(t.Off != "").i(len(t.Key.Keys())).s(t.Key.Keys()...)
		}
	}
	return m.memo.header.get(drawnFor.String(), m.drawHeader)
}

// environmentKey adds the matched environment's label and colour.
func (m *Model) environmentKey(k *memoKey) {
	if e := m.environment(); e != nil {
		k.s(e.Label, e.Hex())
	} else {
		k.s("", "")
	}
}

// statusBar is the bottom line: where, the session's figures, the
// spinner and the message. A failure is drawn each time (rare, and its
// words come from the error).
func (m *Model) statusBar() string {
	if m.lastErr != nil {
		return m.drawStatusBar()
	}
	total, last := m.cfg.Session.Totals()
	shown, est := m.shownRCU(total.RCU)
	drawnFor := new(memoKey).i(m.w).i(total.Requests).s(strconv.FormatFloat(shown, 'g', -1, 64)).b(est).i(int(last))
	m.environmentKey(drawnFor)
	if m.cfg.Load != nil {
		drawnFor.s(m.loadView())
	} else {
		drawnFor.s(m.cfg.Connection)
	}
	loading := m.anyLoading()
	drawnFor.b(loading).b(m.skeleton != nil)
	if loading {
		why, retrying := m.cfg.Session.Retrying()
		drawnFor.s(m.spin.View(), why).b(retrying)
	}
	badge, note := m.maskBadge()
	drawnFor.s(m.notice, m.noticeMore, m.noticeResult, badge, note)
	if m.cfg.Now != nil {
		drawnFor.s(m.clock())
	}
	return m.memo.status.get(drawnFor.String(), m.drawStatusBar)
}

// requestLine is the request line(s) under the page.
func (m *Model) requestLine() string {
	if m.export.naming || m.exportLine() != "" {
		return m.request()
	}
	drawnFor := new(memoKey).i(m.w).s(m.requestText())
	return m.memo.request.get(drawnFor.String(), m.request)
}

// requestRows is how many lines the request line takes.
func (m *Model) requestRows() int {
	if m.tooSmall() || m.exportLine() != "" {
		return 1
	}
	text := m.requestText()
	r := &m.memo.requestHeight
	drawnFor := new(memoKey).i(m.w).s(text).String()
	if !r.ok || r.key != drawnFor {
		r.key, r.n, r.ok = drawnFor, m.requestHeight(), true
	}
	return r.n
}
