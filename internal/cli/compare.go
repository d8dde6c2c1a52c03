package cli

import (
	"context"
	"fmt"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui"
)

// explorerAgainst connects the other side the explorer's = picked, as
// dynascope diff's --against-* flags would (credentials, SSO, the
// configured environments), counted in the explorer's session.
func (g *globals) explorerAgainst(ctx context.Context, s ui.Side, key dynamo.KeySchema) (dynamo.Client, string, error) {
	conn, err := g.connectAgainst(ctx, againstFlags{endpoint: s.Endpoint, profile: s.Profile, region: s.Region, data: s.Data}, key)
	if err != nil {
		return nil, "", err
	}
	return conn.client, conn.named(), nil
}

// againstChoices are the sides = offers besides the connection's other
// tables: the configured environments that name a connection (one named
// by its account alone cannot be connected to), the profiles of the AWS
// configuration file, then the regions they name.
func againstChoices(g *globals, conf config.Config) []ui.Side {
	var out []ui.Side
	for _, e := range conf.Environments {
		if e.EndpointURL == "" && e.Profile == "" && e.Region == "" {
			continue
		}
		out = append(out, ui.Side{Label: e.Label, Profile: e.Profile, Region: e.Region, Endpoint: e.EndpointURL})
	}
	profiles, _ := dynamo.Profiles() // an unreadable ~/.aws/config offers none
	for _, p := range profiles {
		if p.Name == g.profileName() && !g.demo {
			continue // this connection's own
		}
		label := "profile " + p.Name
		if p.Region != "" {
			label = fmt.Sprintf("profile %s · %s", p.Name, p.Region)
		}
		out = append(out, ui.Side{Label: label, Profile: p.Name, Region: p.Region})
	}
	return append(out, againstRegions(g, profiles)...)
}

// againstRegions are the regions the profiles name, each as this
// connection in that region (a replica, a restore elsewhere), other than
// the connection's own.
func againstRegions(g *globals, profiles []dynamo.Profile) []ui.Side {
	var out []ui.Side
	seen := map[string]bool{g.region: true}
	for _, p := range profiles {
		if p.Region == "" || seen[p.Region] {
			continue
		}
		seen[p.Region] = true
		out = append(out, ui.Side{Label: "region " + p.Region + " (this connection's credentials)", Region: p.Region})
	}
	return out
}

// besides are the sides other than the connection itself. An environment
// naming this connection (PROD, opened on PROD), or a region side in the
// region the connection resolved, would compare a partition with itself:
// "no differences", true and useless. A connection matched by nothing
// (--demo, --data) keeps every side.
func besides(sides []ui.Side, where config.Connection) []ui.Side {
	out := make([]ui.Side, 0, len(sides))
	for _, s := range sides {
		same := config.Environment{EndpointURL: s.Endpoint, Profile: s.Profile, Region: s.Region}
		if where != (config.Connection{}) && s.Data == "" && same.Matches(where) {
			continue
		}
		out = append(out, s)
	}
	return out
}
