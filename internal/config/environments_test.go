package config

import (
	"strings"
	"testing"
)

func TestEnvironments(t *testing.T) {
	c, err := ParseConfig(`
[[environments]]
label = "PROD"
color = "red"
endpoint_url = "https://dynamodb.eu-west-1.amazonaws.com"

[[environments]]
label = "STAGING"
color = "#ffaa00"
profile = "staging"

[[environments]]
label = "PROD-US"
account = "123456789012"
region = "us-east-1"

[[environments]]
label = "LOCAL"
color = "green"
endpoint_url = "http://localhost:8000/"
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		conn Connection
		want string
	}{
		{Connection{Region: "eu-west-1", EndpointURL: AWSEndpoint("eu-west-1")}, "PROD"},
		{Connection{Region: "eu-west-1", EndpointURL: "HTTPS://DynamoDB.eu-west-1.amazonaws.com/"}, "PROD"},
		{Connection{Profile: "staging", Region: "eu-west-1", EndpointURL: AWSEndpoint("eu-west-1")}, "PROD"}, // the first that matches
		{Connection{Profile: "staging", Region: "us-west-2", EndpointURL: AWSEndpoint("us-west-2")}, "STAGING"},
		{Connection{Region: "us-east-1", EndpointURL: AWSEndpoint("us-east-1")}, ""}, // the account is not known
		{Connection{Region: "us-east-1", EndpointURL: AWSEndpoint("us-east-1"), Account: "123456789012"}, "PROD-US"},
		{Connection{Region: "us-east-1", EndpointURL: "http://user:secret@localhost:8000"}, "LOCAL"},
		{Connection{Region: "us-east-1", EndpointURL: "http://localhost:8001"}, ""},
	} {
		e, ok := c.Environment(tc.conn)
		if e.Label != tc.want || ok != (tc.want != "") {
			t.Errorf("%+v: got %q %v, want %q", tc.conn, e.Label, ok, tc.want)
		}
	}
	if c.Environments[0].Hex() != "#d70000" || c.Environments[1].Hex() != "#ffaa00" || (Environment{}).Hex() != "#d70000" {
		t.Errorf("colours: %q %q", c.Environments[0].Hex(), c.Environments[1].Hex())
	}
	if AWSEndpoint("cn-north-1") != "https://dynamodb.cn-north-1.amazonaws.com.cn" || AWSEndpoint("") != "" {
		t.Error("AWSEndpoint")
	}
}

func TestEnvironmentsRefused(t *testing.T) {
	for _, tc := range []struct{ conf, want string }{
		{"[[environments]]\nprofile = \"p\"", "environments[1]: label is missing"},
		{"[[environments]]\nlabel = \"PROD\"", "it matches nothing"},
		{"[[environments]]\nlabel = \"PROD\"\nprofile = \"p\"\ncolor = \"ultraviolet\"", `color "ultraviolet"`},
		{"[[environments]]\nlabel = \"PROD\"\naccount = \"12\"", "12-digit"},
		{"[[environments]]\nlabel = \"PROD\"\nendpoint_url = \"localhost:8000\"", "http(s) URL"},
		{"[[environments]]\nlabel = \"PR\\u001bOD\"\nprofile = \"p\"", "printable"},
		{"[[environments]]\nlabel = \"PROD\"\nprofile = \"p\"\ncolour = \"red\"", "[[environments]] (label, color"},
	} {
		_, err := ParseConfig(tc.conf)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.conf, err, tc.want)
		}
	}
}
