package memory

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A record is a stored item encoded into one string: a type tag and
// length-prefixed bytes per value, names before their values. A map of
// SDK attribute values costs an allocation per value and a map per item
// (about 1,600 bytes for a 300-byte item); a record costs its bytes and
// one string header, and is decoded into a fresh map each time it is read,
// so what a read returns can never alias what is stored.
type record string

const (
	tagS byte = iota + 1
	tagN
	tagB
	tagBOOL
	tagNULL
	tagSS
	tagNS
	tagBS
	tagL
	tagM
)

func encodeItem(item map[string]types.AttributeValue) record {
	var e encoder
	return e.encode(item)
}

// encoder encodes items through one scratch buffer, so that encoding many
// items allocates each record once, at its size, and nothing else.
type encoder struct {
	buf   []byte
	names []string
}

func (e *encoder) encode(item map[string]types.AttributeValue) record {
	e.buf = e.appendMap(e.buf[:0], item)
	return record(e.buf)
}

// encodeOnly encodes the item's attributes named in keep (names may
// repeat), as encode would encode a map holding only those.
func (e *encoder) encodeOnly(item map[string]types.AttributeValue, keep []string) record {
	names := e.names[:0]
	for _, k := range keep {
		if _, ok := item[k]; ok && !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	e.names = names // nested maps append their names after these
	b := binary.AppendUvarint(e.buf[:0], uint64(len(names)))
	for _, k := range names {
		b = appendBytes(b, k)
		b = e.appendValue(b, item[k])
	}
	clear(names)
	e.names = names[:0]
	e.buf = b
	return record(b)
}

// within returns s as a substring of the record when the record holds
// those bytes (as it holds its own key values), so that an entry's sort
// key shares the record's memory instead of keeping a copy alive.
func (r record) within(s string) string {
	if i := strings.Index(string(r), s); s != "" && i >= 0 {
		return string(r)[i : i+len(s)]
	}
	return s
}

func appendBytes(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func (e *encoder) appendMap(b []byte, m map[string]types.AttributeValue) []byte {
	b = binary.AppendUvarint(b, uint64(len(m)))
	start := len(e.names)
	for k := range m {
		e.names = append(e.names, k)
	}
	names := e.names[start:]
	sort.Strings(names) // the same item always encodes to the same record
	for _, k := range names {
		b = appendBytes(b, k)
		b = e.appendValue(b, m[k])
	}
	clear(names)
	e.names = e.names[:start]
	return b
}

func (e *encoder) appendValue(b []byte, v types.AttributeValue) []byte {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return appendBytes(append(b, tagS), v.Value)
	case *types.AttributeValueMemberN:
		return appendBytes(append(b, tagN), v.Value)
	case *types.AttributeValueMemberB:
		return appendBytes(append(b, tagB), string(v.Value))
	case *types.AttributeValueMemberBOOL:
		if v.Value {
			return append(b, tagBOOL, 1)
		}
		return append(b, tagBOOL, 0)
	case *types.AttributeValueMemberNULL:
		if v.Value {
			return append(b, tagNULL, 1)
		}
		return append(b, tagNULL, 0)
	case *types.AttributeValueMemberSS:
		return appendStrings(append(b, tagSS), v.Value)
	case *types.AttributeValueMemberNS:
		return appendStrings(append(b, tagNS), v.Value)
	case *types.AttributeValueMemberBS:
		b = binary.AppendUvarint(append(b, tagBS), uint64(len(v.Value)))
		for _, x := range v.Value {
			b = appendBytes(b, string(x))
		}
		return b
	case *types.AttributeValueMemberL:
		b = binary.AppendUvarint(append(b, tagL), uint64(len(v.Value)))
		for _, x := range v.Value {
			b = e.appendValue(b, x)
		}
		return b
	case *types.AttributeValueMemberM:
		return e.appendMap(append(b, tagM), v.Value)
	}
	panic("memory: cannot store an attribute value of type " + typeName(v))
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendBytes(b, s)
	}
	return b
}

// decoder reads a record. Records are written only by encodeItem, so a
// malformed one is a bug in this package, and it panics.
type decoder struct {
	s record
	i int
}

func (r record) item() map[string]types.AttributeValue {
	if r == "" {
		return nil
	}
	d := decoder{s: r}
	return d.readMap()
}

func (d *decoder) uvarint() int {
	n, shift := 0, 0
	for {
		c := d.s[d.i]
		d.i++
		n |= int(c&0x7f) << shift
		if c < 0x80 {
			return n
		}
		shift += 7
	}
}

func (d *decoder) str() string {
	n := d.uvarint()
	s := string(d.s[d.i : d.i+n])
	d.i += n
	return s
}

func (d *decoder) readMap() map[string]types.AttributeValue {
	n := d.uvarint()
	m := make(map[string]types.AttributeValue, n)
	for range n {
		k := d.str()
		m[k] = d.value()
	}
	return m
}

func (d *decoder) strs() []string {
	out := make([]string, d.uvarint())
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) value() types.AttributeValue {
	tag := d.s[d.i]
	d.i++
	switch tag {
	case tagS:
		return &types.AttributeValueMemberS{Value: d.str()}
	case tagN:
		return &types.AttributeValueMemberN{Value: d.str()}
	case tagB:
		return &types.AttributeValueMemberB{Value: []byte(d.str())}
	case tagBOOL, tagNULL:
		v := d.s[d.i] == 1
		d.i++
		if tag == tagBOOL {
			return &types.AttributeValueMemberBOOL{Value: v}
		}
		return &types.AttributeValueMemberNULL{Value: v}
	case tagSS:
		return &types.AttributeValueMemberSS{Value: d.strs()}
	case tagNS:
		return &types.AttributeValueMemberNS{Value: d.strs()}
	case tagBS:
		out := make([][]byte, d.uvarint())
		for i := range out {
			out[i] = []byte(d.str())
		}
		return &types.AttributeValueMemberBS{Value: out}
	case tagL:
		out := make([]types.AttributeValue, d.uvarint())
		for i := range out {
			out[i] = d.value()
		}
		return &types.AttributeValueMemberL{Value: out}
	case tagM:
		return &types.AttributeValueMemberM{Value: d.readMap()}
	}
	panic("memory: corrupt record")
}
