package dynamo

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/config"
)

// Profile is a profile of the AWS shared configuration, with the region
// it names (if any): the explorer's = offers them as the other side.
type Profile struct {
	Name   string
	Region string
}

// Profiles lists the profiles of the shared configuration file
// ($AWS_CONFIG_FILE, else ~/.aws/config) in file order; none when there
// is no file.
func Profiles() ([]Profile, error) {
	path := os.Getenv("AWS_CONFIG_FILE")
	if path == "" {
		path = config.DefaultSharedConfigFilename()
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Profile
	cur := -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			name := strings.TrimSpace(line[1 : len(line)-1])
			cur = -1
			if name == "default" {
				out, cur = append(out, Profile{Name: name}), len(out)
			} else if p, ok := strings.CutPrefix(name, "profile "); ok && strings.TrimSpace(p) != "" {
				out, cur = append(out, Profile{Name: strings.TrimSpace(p)}), len(out)
			}
		case cur >= 0:
			if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == "region" {
				out[cur].Region = strings.TrimSpace(v)
			}
		}
	}
	return out, sc.Err()
}
