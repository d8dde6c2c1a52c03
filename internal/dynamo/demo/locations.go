package demo

import (
	"fmt"
	"math/rand/v2"
)

// The four Starbucks rows of AWS's example (docs/patterns.md: locations by
// country), present exactly.
var seedLocations = []struct {
	Country, SK, Street string
	SquareFeet          int64
}{
	{"USA", "NE#OMAHA#68118", "#100 St Andrews lane", 921},
	{"USA", "NY#NEWYORKCITY#10001", "#675 6th Ave", 1211},
	{"USA", "NY#NEWYORKCITY#10019", "1500 Broadway", 1924},
	{"FRANCE", "ILE-DE-FRANCE#PARIS#75001", "26 Avenue de I'Opera", 2102},
}

var usStates = []string{"AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
	"LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA",
	"RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY"}

var cityParts = []string{"SPRING", "FAIR", "GREEN", "RIVER", "LAKE", "OAK", "MAPLE", "CEDAR", "HILL", "WEST", "EAST", "NORTH",
	"PORT", "MILL", "ROCK", "SUN", "PINE", "ELM", "BAY", "STONE"}
var citySuffixes = []string{"FIELD", "VILLE", "TON", "WOOD", "DALE", "BURG", "VIEW", "FORD", "PORT", "HAVEN"}

var streets = []string{"Main St", "Broadway", "Oak Ave", "Market St", "2nd Ave", "Elm St", "Park Blvd", "Lake Rd", "Pine St", "River Rd"}

var otherCountries = map[string][]string{
	"CANADA":      {"ON", "QC", "BC", "AB"},
	"FRANCE":      {"ILE-DE-FRANCE", "ÎLE-DE-FRANCE", "PROVENCE", "BRETAGNE"},
	"GERMANY":     {"BAYERN", "BERLIN", "HESSEN"},
	"SWITZERLAND": {"ZÜRICH", "GENÈVE", "BERN"},
	"JAPAN":       {"TOKYO", "OSAKA"},
}

func locations(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(3, 1))
	store := func(country, sk, city string, r *rand.Rand) error {
		it := Item{"PK": str(country), "SK": str(sk), "City": str(city),
			"StreetAddress": str(fmt.Sprintf("%d %s", 1+r.IntN(9000), streets[r.IntN(len(streets))])),
			"SquareFeet":    num(int64(800 + r.IntN(1800))),
			"OpenedOn":      str(fmt.Sprintf("%04d-%02d-%02d", 1995+r.IntN(30), 1+r.IntN(12), 1+r.IntN(28))),
			"DriveThru":     boolean(r.IntN(3) == 0)}
		if r.IntN(4) == 0 {
			it["Tags"] = strSet("wifi", []string{"reserve", "patio", "late-night"}[r.IntN(3)])
		}
		return emit(it)
	}
	seen := map[string]bool{}
	for _, s := range seedLocations {
		seen[s.Country+"/"+s.SK] = true
	}
	// USA: ~5,000 stores over every state, several cities, several zips.
	for si, state := range usStates {
		cities := 3 + r.IntN(6)
		for c := 0; c < cities; c++ {
			city := cityParts[(si*7+c*3)%len(cityParts)] + citySuffixes[(si+c*5)%len(citySuffixes)]
			if state == "NY" && c == 0 {
				city = "NEWYORKCITY"
			}
			if state == "NE" && c == 0 {
				city = "OMAHA"
			}
			zips := 4 + r.IntN(12)
			for z := 0; z < zips; z++ {
				zip := fmt.Sprintf("%05d", 10000+si*1700+c*97+z*7)
				sk := state + "#" + city + "#" + zip
				if seen["USA/"+sk] {
					continue
				}
				seen["USA/"+sk] = true
				for n := 0; n < 1+r.IntN(3); n++ {
					suffix := ""
					if n > 0 {
						suffix = fmt.Sprintf("#%d", n+1) // a second store in the same zip
					}
					if err := store("USA", sk+suffix, city, r); err != nil {
						return err
					}
				}
			}
		}
	}
	for _, s := range seedLocations {
		if err := emit(Item{"PK": str(s.Country), "SK": str(s.SK), "StreetAddress": str(s.Street), "SquareFeet": num(s.SquareFeet),
			"City": str(cityOf(s.SK)), "OpenedOn": str("2009-04-01"), "DriveThru": boolean(false)}); err != nil {
			return err
		}
	}
	// Drill-down edge cases: an item that is also a prefix (NY and NY#…),
	// a neighbour that shares the start of a segment (NYC), an empty
	// segment and a trailing delimiter.
	for _, sk := range []string{"NY", "NYC#MANHATTAN#10007", "PR##00901", "GU#HAGATNA#"} {
		if err := store("USA", sk, cityOf(sk), r); err != nil {
			return err
		}
	}
	for _, country := range []string{"CANADA", "FRANCE", "GERMANY", "JAPAN", "SWITZERLAND"} {
		for ri, region := range otherCountries[country] {
			for c := 0; c < 3+r.IntN(4); c++ {
				city := cityParts[(ri*5+c)%len(cityParts)] + citySuffixes[(ri+c)%len(citySuffixes)]
				if country == "SWITZERLAND" && region == "ZÜRICH" && c == 0 {
					city = "Zürich"
				}
				for z := 0; z < 2+r.IntN(5); z++ {
					sk := fmt.Sprintf("%s#%s#%05d", region, city, 1000+ri*900+c*31+z)
					if seen[country+"/"+sk] {
						continue
					}
					seen[country+"/"+sk] = true
					if err := store(country, sk, city, r); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func cityOf(sk string) string {
	parts := splitHash(sk)
	if len(parts) > 1 && parts[1] != "" {
		return parts[1]
	}
	return parts[0]
}

func splitHash(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '#' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
