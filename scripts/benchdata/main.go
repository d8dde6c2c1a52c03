// Command benchdata writes a DynamoDB export folder of N generated items of
// about 300 bytes each (DynamoDB's item size), for `make bench-data`, and
// prints what it wrote: items, item bytes, uncompressed and gzip bytes.
package main

import (
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/dataload/dataloadtest"
)

func main() {
	dir := flag.String("dir", "", "export folder to write")
	n := flag.Int("items", 100_000, "items to write")
	parts := flag.Int("parts", 8, "data files")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "benchdata: give --dir")
		os.Exit(2)
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	itemBytes := 0
	items := func(yield func(map[string]types.AttributeValue) error) error {
		for i := range *n {
			it := map[string]types.AttributeValue{
				"PK":       s(fmt.Sprintf("TENANT#%04d", i%1000)),
				"SK":       s(fmt.Sprintf("ORDER#2026-%02d-%02dT%02d:%02d:00Z#%08d", 1+i%12, 1+i%28, i%24, i%60, i)),
				"Status":   s([]string{"PENDING", "SHIPPED", "DELIVERED", "RETURNED"}[i%4]),
				"Total":    num(i % 100_000),
				"Customer": s(fmt.Sprintf("customer-%06d@example.com", i%50_000)),
				"Lines":    num(1 + i%9),
				"Notes":    s(strings.Repeat(fmt.Sprintf("note %d ", i), 20)[:105]),
				"Tags":     &types.AttributeValueMemberSS{Value: []string{"priority", fmt.Sprintf("region-%d", i%7)}},
				"Address": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
					"Street": s(fmt.Sprintf("%d Main Street", i%9999)), "City": s("Springfield"), "Zip": s(fmt.Sprintf("%05d", i%99999)),
				}},
			}
			itemBytes += size(it)
			if err := yield(it); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := dataloadtest.WriteExport(*dir, "Orders", items, dataloadtest.ExportOptions{Parts: *parts, Seed: 1}); err != nil {
		fmt.Fprintln(os.Stderr, "benchdata:", err)
		os.Exit(1)
	}
	var raw, packed int64
	files, _ := filepath.Glob(filepath.Join(*dir, "data", "*.json.gz"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			panic(err)
		}
		st, _ := fh.Stat()
		packed += st.Size()
		zr, err := gzip.NewReader(fh)
		if err != nil {
			panic(err)
		}
		m, _ := io.Copy(io.Discard, zr)
		raw += m
		fh.Close()
	}
	fmt.Printf("items=%d avg_item_bytes=%d uncompressed_bytes=%d gzip_bytes=%d files=%d\n", *n, itemBytes/max(1, *n), raw, packed, len(files))
}

// size is DynamoDB's item size: attribute names plus values.
func size(item map[string]types.AttributeValue) int {
	n := 0
	for k, v := range item {
		n += len(k)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberN:
			n += (len(v.Value)+1)/2 + 1
		case *types.AttributeValueMemberSS:
			for _, e := range v.Value {
				n += len(e)
			}
		case *types.AttributeValueMemberM:
			n += 3 + size(v.Value) + len(v.Value)
		}
	}
	return n
}
