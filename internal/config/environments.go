package config

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Environment names a connection for people, so that a production table
// is never taken for a sandbox one: its label, in its colour, wherever the
// connection matches every one of endpoint_url, profile, region and
// account that it sets.
type Environment struct {
	Label       string `toml:"label"`
	Color       string `toml:"color"` // a name (red, orange, …) or #rrggbb; default red
	EndpointURL string `toml:"endpoint_url"`
	Profile     string `toml:"profile"`
	Region      string `toml:"region"`
	Account     string `toml:"account"`
}

// Connection is what an environment is matched against: the profile the
// SDK uses (if named), the region it resolved, the endpoint it reads
// (AWS's own for the region where none was given) and, where known, the
// account (from a table's ARN).
type Connection struct {
	Profile, Region, EndpointURL, Account string
}

// namedColors are the colours an environment may name, as #rrggbb.
var namedColors = map[string]string{
	"red": "#d70000", "orange": "#ff8700", "yellow": "#d7af00", "green": "#00af5f", "blue": "#0087ff",
	"purple": "#8700d7", "magenta": "#d700af", "cyan": "#00afaf", "gray": "#808080", "grey": "#808080", "white": "#ffffff",
}

var hexColor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`) })

// Hex is the environment's colour as #rrggbb (or #rgb as written).
func (e Environment) Hex() string {
	if e.Color == "" {
		return namedColors["red"]
	}
	if h, ok := namedColors[strings.ToLower(e.Color)]; ok {
		return h
	}
	return e.Color
}

// Matches reports whether c is this environment: every field it sets
// names c (endpoints compared without credentials, case or a trailing
// slash). An account it sets matches only where c's account is known.
func (e Environment) Matches(c Connection) bool {
	switch {
	case e.EndpointURL != "" && NormalEndpoint(e.EndpointURL) != NormalEndpoint(c.EndpointURL):
		return false
	case e.Profile != "" && e.Profile != c.Profile:
		return false
	case e.Region != "" && !strings.EqualFold(e.Region, c.Region):
		return false
	case e.Account != "" && e.Account != c.Account:
		return false
	}
	return true
}

// NormalEndpoint is an endpoint URL as environments compare it: scheme and
// host in lower case, no user:password, no trailing slash.
func NormalEndpoint(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return strings.ToLower(strings.TrimRight(s, "/"))
	}
	u.User = nil
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String()
}

// AWSEndpoint is DynamoDB's own endpoint for a region, which a connection
// without --endpoint-url reads.
func AWSEndpoint(region string) string {
	if region == "" {
		return ""
	}
	if strings.HasPrefix(region, "cn-") {
		return "https://dynamodb." + region + ".amazonaws.com.cn"
	}
	return "https://dynamodb." + region + ".amazonaws.com"
}

// Environment is the first configured environment c matches.
func (c Config) Environment(conn Connection) (Environment, bool) {
	for _, e := range c.Environments {
		if e.Matches(conn) {
			return e, true
		}
	}
	return Environment{}, false
}

var accountID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{12}$`) })

// checkEnvironment says what is wrong with the i-th [[environments]].
func checkEnvironment(i int, e Environment) error {
	where := fmt.Sprintf("environments[%d]", i+1)
	switch {
	case strings.TrimSpace(e.Label) == "":
		return fmt.Errorf("%s: label is missing; write label = \"PROD\"", where)
	case strings.IndexFunc(e.Label, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0 || len(e.Label) > 32:
		return fmt.Errorf("%s: label %q: write up to 32 printable characters, such as \"PROD\"", where, e.Label)
	case e.EndpointURL == "" && e.Profile == "" && e.Region == "" && e.Account == "":
		return fmt.Errorf("%s (%s): it matches nothing; give endpoint_url, profile, region or account", where, e.Label)
	case e.Color != "" && namedColors[strings.ToLower(e.Color)] == "" && !hexColor().MatchString(e.Color):
		return fmt.Errorf("%s (%s): color %q: write red, orange, yellow, green, blue, purple, magenta, cyan, gray or white, or #rrggbb", where, e.Label, e.Color)
	case e.Account != "" && !accountID().MatchString(e.Account):
		return fmt.Errorf("%s (%s): account %q: write the 12-digit AWS account ID", where, e.Label, e.Account)
	}
	if e.EndpointURL != "" {
		if u, err := url.Parse(e.EndpointURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s (%s): endpoint_url %q: write an http(s) URL such as https://dynamodb.eu-west-1.amazonaws.com", where, e.Label, e.EndpointURL)
		}
	}
	return nil
}
