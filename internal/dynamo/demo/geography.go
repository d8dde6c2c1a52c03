package demo

import (
	"fmt"
	"math/rand/v2"
)

// GeographyPartition holds the deep [country]#[region]#[state]#[county]#[city]#[neighborhood] hierarchy.
const GeographyPartition = "PLACE"

var geoCountries = []string{"ARGENTINA", "AUSTRALIA", "BRAZIL", "CANADA", "CHINA", "EGYPT", "FRANCE", "GERMANY", "INDIA",
	"ITALY", "JAPAN", "KENYA", "MEXICO", "NIGERIA", "NORWAY", "PERU", "SPAIN", "SWEDEN", "UK", "USA"}
var geoRegions = []string{"NORTH", "SOUTH", "EAST", "WEST", "CENTRAL"}
var geoSyllables = []string{"AL", "BER", "CA", "DON", "EL", "FAR", "GRA", "HOL", "IN", "JO", "KEL", "LA", "MOR", "NE", "OS",
	"PA", "QUI", "RO", "SAN", "TOR", "UL", "VE", "WIL", "XA", "YOR", "ZE"}

func geoName(r *rand.Rand, parts int) string {
	s := ""
	for i := 0; i < parts; i++ {
		s += geoSyllables[r.IntN(len(geoSyllables))]
	}
	return s
}

func geography(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(5, 8))
	for _, country := range geoCountries {
		for _, region := range geoRegions[:2+r.IntN(4)] {
			for s := 0; s < 2+r.IntN(3); s++ {
				state := geoName(r, 2)
				for c := 0; c < 2+r.IntN(3); c++ {
					county := geoName(r, 2) + "COUNTY"
					for ci := 0; ci < 3+r.IntN(4); ci++ {
						city := geoName(r, 3)
						for n := 0; n < 6+r.IntN(10); n++ {
							hood := geoName(r, 2) + fmt.Sprintf("-%d", n+1)
							sk := fmt.Sprintf("%s#%s#%s#%s#%s#%s", country, region, state, county, city, hood)
							if err := emit(Item{"PK": str(GeographyPartition), "SK": str(sk), "Name": str(hood),
								"Population": num(int64(500 + r.IntN(90000))),
								"Lat":        dec(fmt.Sprintf("%.4f", r.Float64()*140-70)), "Lon": dec(fmt.Sprintf("%.4f", r.Float64()*340-170))}); err != nil {
								return err
							}
						}
					}
				}
			}
		}
	}
	for i, c := range geoCountries {
		if err := emit(Item{"PK": str("CAPITALS"), "SK": str(c), "Capital": str(geoName(r, 3)), "Rank": num(int64(i + 1))}); err != nil {
			return err
		}
	}
	return nil
}
