package dataload

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// workbenchModel is a NoSQL Workbench data model as Workbench exports it.
// Sample items live in each table's TableData or, in the facets form, in
// each facet's TableData.
type workbenchModel struct {
	ModelName string
	DataModel []workbenchTable
}

type workbenchTable struct {
	TableName              string
	KeyAttributes          workbenchKeys
	GlobalSecondaryIndexes []struct {
		IndexName     string
		KeyAttributes workbenchKeys
		Projection    *struct {
			ProjectionType   string
			NonKeyAttributes []string
		}
	}
	TableData   []json.RawMessage
	TableFacets []struct {
		FacetName string
		TableData []json.RawMessage
	}
}

// schema is the table's key schema and indexes; where names the table in
// errors.
func (t workbenchTable) schema(where string) (*Schema, error) {
	pk, sk, err := t.KeyAttributes.attrs(where)
	if err != nil {
		return nil, err
	}
	sc := &Schema{Table: t.TableName, PK: pk, SK: sk}
	for _, g := range t.GlobalSecondaryIndexes {
		gpk, gsk, err := g.KeyAttributes.attrs(where + " index " + g.IndexName)
		if err != nil {
			return nil, err
		}
		ix := Index{Name: g.IndexName, PK: gpk, SK: gsk, Projection: allProjection()}
		if g.Projection != nil && g.Projection.ProjectionType != "" {
			ix.Projection = projection(g.Projection.ProjectionType, g.Projection.NonKeyAttributes)
		}
		sc.GSIs = append(sc.GSIs, ix)
	}
	sc.define()
	return sc, nil
}

type workbenchKeys struct {
	PartitionKey *workbenchAttr
	SortKey      *workbenchAttr
}

type workbenchAttr struct{ AttributeName, AttributeType string }

func (k workbenchKeys) attrs(where string) (KeyAttr, *KeyAttr, error) {
	conv := func(a *workbenchAttr) (KeyAttr, error) {
		t, ok := scalarType(a.AttributeType)
		if !ok || a.AttributeName == "" {
			return KeyAttr{}, fmt.Errorf("%s: key %q has type %q; a key is S, N or B", where, a.AttributeName, a.AttributeType)
		}
		return KeyAttr{a.AttributeName, t}, nil
	}
	if k.PartitionKey == nil {
		return KeyAttr{}, nil, fmt.Errorf("%s has no KeyAttributes.PartitionKey", where)
	}
	pk, err := conv(k.PartitionKey)
	if err != nil {
		return pk, nil, err
	}
	if k.SortKey == nil {
		return pk, nil, nil
	}
	sk, err := conv(k.SortKey)
	return pk, &sk, err
}

// MaxWorkbenchBytes bounds a Workbench model's JSON: models hold sample
// data and are small (10,000 tables of schema and a few items is a few
// MB), and the model is read whole.
const MaxWorkbenchBytes = 32 << 20

// readWorkbench reads a whole model, at most MaxWorkbenchBytes of it: a
// file of gigabytes (one huge item, a gzip bomb) stops there.
func (l *loader) readWorkbench(path string) (workbenchModel, error) {
	var m workbenchModel
	// Measured first, holding nothing: a model past the limit is refused
	// before a byte of it is kept.
	o, err := l.open(path)
	if err != nil {
		return m, err
	}
	lines := &lineCounter{}
	n, err := io.Copy(lines, io.LimitReader(o.r, MaxWorkbenchBytes+1))
	o.Close()
	if err != nil {
		return m, readErr(path, lines.n+1, err)
	}
	if n > MaxWorkbenchBytes {
		return m, &Error{File: path, Line: lines.n + 1, Msg: fmt.Sprintf("the Workbench model is longer than %d MB: no NoSQL Workbench model is", MaxWorkbenchBytes>>20),
			Hint: "an item holds at most 400 KB; export the model again from NoSQL Workbench"}
	}
	if o, err = l.open(path); err != nil {
		return m, err
	}
	defer o.Close()
	data, err := io.ReadAll(io.LimitReader(o.r, MaxWorkbenchBytes))
	if err != nil {
		return m, readErr(path, 0, err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, &Error{File: path, Msg: "malformed Workbench model: " + errLine(err), Hint: "export the model again from NoSQL Workbench"}
	}
	return m, nil
}

// lineCounter counts the newlines written to it.
type lineCounter struct{ n int }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// workbench loads every table of a NoSQL Workbench model with its indexes
// and sample data.
func (l *loader) workbench(ctx context.Context, path string) error {
	m, err := l.readWorkbench(path)
	if err != nil {
		return err
	}
	if len(m.DataModel) == 0 {
		return &Error{File: path, Msg: "the Workbench model has no tables (DataModel is empty)", Hint: Supported}
	}
	l.file = path
	l.res.Files++
	for ti, t := range m.DataModel {
		where := fmt.Sprintf("DataModel[%d] (%s)", ti, t.TableName)
		bad := func(err error) error {
			return &Error{File: path, Msg: err.Error(), Hint: "fix the model in NoSQL Workbench and export it again"}
		}
		if t.TableName == "" {
			return bad(fmt.Errorf("%s has no TableName", where))
		}
		sc, err := t.schema(where)
		if err != nil {
			return bad(err)
		}
		if sc, err = l.ensure(ctx, t.TableName, sc); err != nil {
			return err
		}
		l.table = t.TableName
		type group struct {
			where string
			data  []json.RawMessage
		}
		p := newParser()
		groups := []group{{where + " TableData", t.TableData}}
		for _, f := range t.TableFacets {
			groups = append(groups, group{fmt.Sprintf("%s facet %s TableData", where, f.FacetName), f.TableData})
		}
		for _, g := range groups {
			items := make([]map[string]types.AttributeValue, 0, len(g.data))
			for i, raw := range g.data {
				l.res.Bytes += int64(len(raw))
				it, err := p.bareItem(raw)
				if err == nil {
					err = sc.checkKeys(it)
				}
				if err != nil {
					if l.opt.SkipBad {
						l.res.Skipped++
						continue
					}
					return &Error{File: path, Msg: fmt.Sprintf("%s[%d]: %s", g.where, i, errLine(err)), Hint: "fix the item in NoSQL Workbench, or add --skip-bad to load the rest"}
				}
				items = append(items, it)
			}
			if at, err := l.db.PutItems(ctx, t.TableName, items); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return &Error{File: path, Msg: fmt.Sprintf("%s: item %d is refused: %v", g.where, at, err), Hint: "fix the item in NoSQL Workbench"}
			}
			l.res.Items += len(items)
		}
		l.finished(t.TableName)
		l.report(false)
	}
	return nil
}
