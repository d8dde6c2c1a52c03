// Package dataloadtest writes data in the formats dataload reads, as AWS
// writes them, for tests and benchmarks: DynamoDB export folders and
// `aws dynamodb scan` output.
package dataloadtest

import (
	"bufio"
	"compress/gzip"
	"crypto/md5"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/dataload"
)

// ExportOptions shape an export folder.
type ExportOptions struct {
	Parts int    // data files (default 3)
	Seed  uint64 // shuffles items across parts and the parts' order in the manifest
}

// Items yields items to write, stopping at the first error.
type Items func(func(map[string]types.AttributeValue) error) error

// WriteExport writes a full export of table in DynamoDB JSON into dir, as
// DynamoDB writes one to S3: manifest-summary.json, manifest-files.json
// (itemCount, md5Checksum, etag, dataFileS3Key per file), _started, and
// data/*.json.gz of {"Item": …} lines. Items are dealt to the parts in a
// shuffled order, and the manifest lists the parts shuffled too. It
// returns the number of items written.
func WriteExport(dir, table string, items Items, opt ExportOptions) (int, error) {
	if opt.Parts <= 0 {
		opt.Parts = 3
	}
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))
	const exportID = "01700000000000-abcdef12"
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return 0, err
	}
	type part struct {
		name  string
		f     *os.File
		zw    *gzip.Writer
		bw    *bufio.Writer
		md5   interface{ Sum([]byte) []byte }
		count int
	}
	parts := make([]*part, opt.Parts)
	for i := range parts {
		name := fmt.Sprintf("%08x%04d.json.gz", rng.Uint32(), i)
		f, err := os.Create(filepath.Join(dir, "data", name))
		if err != nil {
			return 0, err
		}
		h := md5.New()
		zw := gzip.NewWriter(io.MultiWriter(f, h))
		parts[i] = &part{name: name, f: f, zw: zw, bw: bufio.NewWriterSize(zw, 1<<16), md5: h}
	}
	total := 0
	err := items(func(it map[string]types.AttributeValue) error {
		b, err := dataload.MarshalItem(it)
		if err != nil {
			return err
		}
		p := parts[rng.IntN(len(parts))]
		p.count++
		total++
		p.bw.WriteString(`{"Item":`)
		p.bw.Write(b)
		_, err = p.bw.WriteString("}\n")
		return err
	})
	for _, p := range parts {
		if e := p.bw.Flush(); err == nil {
			err = e
		}
		if e := p.zw.Close(); err == nil {
			err = e
		}
		if e := p.f.Close(); err == nil {
			err = e
		}
	}
	if err != nil {
		return total, err
	}
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	mf, err := os.Create(filepath.Join(dir, "manifest-files.json"))
	if err != nil {
		return total, err
	}
	enc := json.NewEncoder(mf)
	for _, p := range parts {
		sum := p.md5.Sum(nil)
		if err := enc.Encode(map[string]any{
			"itemCount": p.count, "md5Checksum": base64.StdEncoding.EncodeToString(sum),
			"etag": fmt.Sprintf("%x-1", sum), "dataFileS3Key": "exports/AWSDynamoDB/" + exportID + "/data/" + p.name,
		}); err != nil {
			mf.Close()
			return total, err
		}
	}
	if err := mf.Close(); err != nil {
		return total, err
	}
	arn := "arn:aws:dynamodb:us-east-1:123456789012:table/" + table
	summary, _ := json.MarshalIndent(map[string]any{
		"version": "2020-06-30", "exportArn": arn + "/export/" + exportID,
		"startTime": "2026-11-01T07:28:34.028Z", "endTime": "2026-11-01T07:33:43.897Z", "exportTime": "2026-11-01T07:28:34.028Z",
		"tableArn": arn, "tableId": "12345a12-abcd-123a-ab12-1234abc12345",
		"s3Bucket": "exports-bucket", "s3Prefix": "exports", "s3SseAlgorithm": "AES256", "s3SseKmsKeyId": nil,
		"manifestFilesS3Key": "exports/AWSDynamoDB/" + exportID + "/manifest-files.json",
		"billedSizeBytes":    0, "itemCount": total, "outputFormat": "DYNAMODB_JSON", "exportType": "FULL_EXPORT",
	}, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "manifest-summary.json"), summary, 0o644); err != nil {
		return total, err
	}
	return total, os.WriteFile(filepath.Join(dir, "_started"), nil, 0o644)
}

// WriteScan writes items as `aws dynamodb scan --output json` prints them,
// split into pages of pageSize items, one file per page under dir:
// page-001.json, page-002.json… It returns the files written.
func WriteScan(dir string, items []map[string]types.AttributeValue, pageSize int) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for start := 0; start == 0 || start < len(items); start += pageSize {
		page := items[start:min(start+pageSize, len(items))]
		raws := make([]json.RawMessage, len(page))
		for i, it := range page {
			b, err := dataload.MarshalItem(it)
			if err != nil {
				return nil, err
			}
			raws[i] = b
		}
		doc := map[string]any{"Items": raws, "Count": len(page), "ScannedCount": len(page), "ConsumedCapacity": nil}
		b, _ := json.MarshalIndent(doc, "", "    ")
		name := filepath.Join(dir, fmt.Sprintf("page-%03d.json", len(files)+1))
		if err := os.WriteFile(name, append(b, '\n'), 0o644); err != nil {
			return nil, err
		}
		files = append(files, name)
	}
	return files, nil
}

// SchemaJSON is `aws dynamodb describe-table` output for a CreateTable
// request: what --schema reads.
func SchemaJSON(in any) ([]byte, error) {
	return json.MarshalIndent(map[string]any{"Table": in}, "", "    ")
}
