package memory

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// itemSize is the size DynamoDB (and dynalite) charge capacity on: attribute
// names plus value sizes. Names and strings count as dynalite counts them,
// in UTF-16 code units (DynamoDB counts UTF-8 bytes: the two differ only
// for names and values outside ASCII).
func itemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += utf16Len(name) + valueSize(v, false)
	}
	return n
}

// pageSize is dynalite's internal size of an item, which decides where the
// 1 MB page limit falls. Following it keeps LastEvaluatedKey identical on
// both backends.
func pageSize(item map[string]types.AttributeValue, rangeKey string) int {
	rangeKeySize, size := 0, 0
	for name, v := range item {
		if name == rangeKey {
			// The sort key is stored apart, at its bare size (the
			// differential suite found pages ending early otherwise).
			rangeKeySize = valueSize(v, false)
			continue
		}
		size += storedSize(v) + 1
	}
	return 2 + size + (1+(1+size)/3072)*(18+rangeKeySize)
}

func compressedMapSize(m map[string]types.AttributeValue) int {
	n := 0
	for _, v := range m {
		n += storedSize(v) + 1
	}
	return n
}

func numberSize(s string) int {
	d, ok := parseDecimal(s)
	if !ok || d.digits == "" {
		return 1
	}
	n := len(d.digits)
	// Big.js keeps the exponent of the first digit (e = exp-1 here).
	e := d.exp - 1
	extra := 1
	if n%2 != 0 || e%2 != 0 {
		extra = 0
	}
	size := 1 + (n+1)/2 + extra
	if d.neg {
		size++
	}
	return size
}

func valueSize(av types.AttributeValue, compress bool) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return utf16Len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberSize(v.Value)
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += utf16Len(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += numberSize(s)
		}
		return n
	case *types.AttributeValueMemberNULL, *types.AttributeValueMemberBOOL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			if compress {
				n += 1 + storedSize(e)
			} else {
				n += 1 + valueSize(e, false)
			}
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3 + len(v.Value)
		if compress {
			return n + compressedMapSize(v.Value)
		}
		for name, e := range v.Value {
			n += utf16Len(name) + valueSize(e, false)
		}
		return n
	}
	return 0
}

func storedSize(av types.AttributeValue) int {
	size := valueSize(av, true)
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		switch {
		case size < 128:
			return size + 1
		case size < 16384:
			return size + 2
		}
		return size + 3
	case *types.AttributeValueMemberB, *types.AttributeValueMemberN:
		return size + 1
	case *types.AttributeValueMemberSS:
		return size + len(v.Value) + 1
	case *types.AttributeValueMemberBS:
		return size + len(v.Value) + 1
	case *types.AttributeValueMemberNS:
		return size + len(v.Value) + 1
	case *types.AttributeValueMemberNULL:
		return 0
	case *types.AttributeValueMemberBOOL:
		return 1
	}
	return size
}

// utf16Len counts a string the way dynalite (JavaScript) measures it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
