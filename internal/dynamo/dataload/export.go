package dataload

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/dynascope/dynascope/internal/files"
)

// manifestSummary is the part of an export's manifest-summary.json the
// loader needs.
type manifestSummary struct {
	TableArn     string `json:"tableArn"`
	OutputFormat string `json:"outputFormat"`
	ExportType   string `json:"exportType"`
	ItemCount    int64  `json:"itemCount"`
	// BilledSizeBytes is the items' size as DynamoDB bills it (0 when
	// the export does not say).
	BilledSizeBytes int64 `json:"billedSizeBytes"`
}

// manifestFile is one line of manifest-files.json.
type manifestFile struct {
	ItemCount     *int   `json:"itemCount"`
	MD5Checksum   string `json:"md5Checksum"`
	DataFileS3Key string `json:"dataFileS3Key"`
}

// tableFromArn is the table an ARN names: arn:…:table/NAME[/export/…].
func tableFromArn(arn string) string {
	_, rest, ok := strings.Cut(arn, ":table/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// export loads a DynamoDB export folder as DynamoDB writes it to S3:
// manifest-summary.json, manifest-files.json and data/*.json.gz. Every file
// the manifest lists is read and checked against its md5 and item count.
func (l *loader) export(ctx context.Context, dir string) error {
	summaryPath := filepath.Join(dir, "manifest-summary.json")
	data, err := files.Read(summaryPath, files.Manifest)
	if err != nil {
		return &Error{File: summaryPath, Msg: "cannot read: " + errText(err), Hint: "give the export folder as DynamoDB wrote it, manifest-summary.json a file in it"}
	}
	var sum manifestSummary
	if err := json.Unmarshal(data, &sum); err != nil {
		return &Error{File: summaryPath, Msg: "malformed JSON: " + jsonErr(err), Hint: "download the export's manifest again"}
	}
	switch {
	case strings.EqualFold(sum.ExportType, "INCREMENTAL_EXPORT"):
		return refuseIncremental(summaryPath)
	case strings.EqualFold(sum.OutputFormat, "ION"):
		return refuseION(summaryPath)
	case sum.OutputFormat != "" && !strings.EqualFold(sum.OutputFormat, "DYNAMODB_JSON"):
		return &Error{File: summaryPath, Msg: "outputFormat " + sum.OutputFormat + " is not supported", Hint: Supported}
	}
	table := tableFromArn(sum.TableArn)
	if table == "" {
		return &Error{File: summaryPath, Msg: "has no tableArn to name the table by", Hint: "the export's manifest is incomplete; download it again"}
	}
	filesPath := filepath.Join(dir, "manifest-files.json")
	listing, err := files.Read(filesPath, files.Manifest)
	if err != nil {
		return &Error{File: filesPath, Msg: "cannot read: " + errText(err), Hint: "an export folder holds manifest-files.json beside manifest-summary.json"}
	}
	sc := bufio.NewScanner(bytes.NewReader(listing))
	sc.Buffer(nil, 1<<20)
	var files []manifestFile
	listedAt := map[string]int{} // data file → the line that listed it
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var f manifestFile
		if err := json.Unmarshal(text, &f); err != nil || f.DataFileS3Key == "" {
			msg := "not a manifest entry (dataFileS3Key, md5Checksum, itemCount)"
			if err != nil {
				msg = "malformed JSON: " + jsonErr(err)
			}
			return &Error{File: filesPath, Line: line, Msg: msg, Hint: "download the export's manifest again"}
		}
		// Listed twice, a data file would load (and count) twice.
		if first, ok := listedAt[path.Base(f.DataFileS3Key)]; ok {
			return &Error{File: filesPath, Line: line, Msg: fmt.Sprintf("lists %s again (first on line %d)", path.Base(f.DataFileS3Key), first),
				Hint: "download the export's manifest again"}
		}
		listedAt[path.Base(f.DataFileS3Key)] = line
		files = append(files, f)
	}
	for _, f := range files {
		p := filepath.Join(dir, "data", path.Base(f.DataFileS3Key))
		if isION(p) {
			return refuseION(p)
		}
		if _, err := os.Stat(p); err != nil {
			return &Error{File: p, Msg: "listed in manifest-files.json but " + errText(err), Hint: "download the whole export folder"}
		}
		if err := inside(dir, p); err != nil {
			return err
		}
		want := -1
		if f.ItemCount != nil {
			want = *f.ItemCount
		}
		if err := l.stream(ctx, table, p, f.MD5Checksum, want); err != nil {
			return err
		}
	}
	if len(files) == 0 {
		// An empty table exports no data files; it still has a table.
		if s := l.schemaFor(table); s != nil {
			_, err := l.ensure(ctx, table, s)
			return err
		}
		return &Error{File: dir, Msg: "table " + table + " has no key schema", Hint: "give --keys NAME:TYPE[,NAME:TYPE] or --schema FILE (aws dynamodb describe-table output)"}
	}
	return nil
}

// inside refuses a file that, its links resolved (the file's or a
// folder's on the way, such as data/), lies outside dir: a folder given
// to --data is read, and nothing it points elsewhere.
func inside(dir, p string) error {
	err := files.Within(dir, p)
	var fe *files.Error
	if errors.As(err, &fe) {
		return &Error{File: p, Msg: fe.Problem, Hint: "copy the file into the folder, or give its own path to --data"}
	}
	return nil // a path that does not resolve is said by opening it
}
