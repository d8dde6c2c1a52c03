package demo

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Sort keys as published single-table models write time into them: AWS's
// FlightsFares (ORIGIN#time#fare#seat), its complaint-management model (a
// metadata item beside a few comm#time#id events), a photo-sharing model
// keyed by ULIDs with PROFILE# items at a prefix, and the Developer
// Guide's orders whose creation date is a yyyyMMdd number. The names sort
// after the older tables', so the tables list keeps its first rows.
const (
	ShapesTable = "Workbench"
	// FlightsPK holds FlightOrigins' departures, ORIGIN#time#fare#seat,
	// beside one metadata item.
	FlightsPK = "FLIGHTS#AA"
	// PhotosPK holds PhotoCount photos keyed PHOTO#<ULID> and the user's
	// PROFILE#, PROFILE#email and PROFILE#phone items.
	PhotosPK   = "USER#ada"
	PhotoCount = 1200
	// ComplaintPK holds one metadata item and two comm#time#id events.
	ComplaintPK = "COMPLAINT#1"
	// ReleasesPK holds revisions numbered by Unix time beside v0_Rel and
	// v1_Rel, and a v2_ that is not a revision (no name).
	ReleasesPK = "RELEASES"

	OrdersTable = "WorkbenchOrders"
	// OrdersCustomer's orders are keyed by their creation date, yyyyMMdd.
	OrdersCustomer = "C1"
)

// FlightOrigins are the origins before the time in FlightsPK's keys.
var FlightOrigins = []string{"JFK", "LAX", "SEA"}

func shapeTables() []*dynamodb.CreateTableInput {
	return []*dynamodb.CreateTableInput{
		table(ShapesTable, []types.AttributeDefinition{attr("PK", "S"), attr("SK", "S")}, "PK", "SK"),
		table(OrdersTable, []types.AttributeDefinition{attr("CustomerId", "S"), attr("OrderCreationDate", "N")}, "CustomerId", "OrderCreationDate"),
	}
}

// shapes writes the Workbench table's partitions.
func shapes(emit func(Item) error) error {
	for _, f := range []func(func(Item) error) error{flights, photos, complaints, releases} {
		if err := f(emit); err != nil {
			return err
		}
	}
	return nil
}

// flights: three departures a day from each origin through July–September
// 2021, each in two fare classes, keyed ORIGIN#time#fare#seat.
func flights(emit func(Item) error) error {
	if err := emit(Item{"PK": str(FlightsPK), "SK": str("metadata"), "Carrier": str("Example Air"), "Hub": str("JFK")}); err != nil {
		return err
	}
	start := time.Date(2021, 7, 1, 0, 0, 0, 0, time.UTC)
	for o, origin := range FlightOrigins {
		for day := range 92 {
			for dep, hour := range []int{7, 13, 19} {
				at := start.AddDate(0, 0, day).Add(time.Duration(hour)*time.Hour + time.Duration(5*o+25*dep)*time.Minute)
				for class, fare := range []int{250 + 10*o + day%7, 900 + 25*o} {
					sk := fmt.Sprintf("%s#%s#%d#%d", origin, at.Format("2006-01-02T15:04:05"), fare, class)
					if err := emit(Item{"PK": str(FlightsPK), "SK": str(sk), "Origin": str(origin),
						"Fare": num(int64(fare)), "Class": str([]string{"economy", "business"}[class]), "Seats": num(int64(40 + (day+o)%60))}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// photos: a user's photos through 2021, keyed by ULIDs (two at the same
// millisecond), beside the profile items kept at PROFILE#.
func photos(emit func(Item) error) error {
	for _, p := range []struct{ sk, attr, val string }{{"PROFILE#", "Name", "Ada"}, {"PROFILE#email", "Email", "ada@example.com"}, {"PROFILE#phone", "Phone", "+1-555-0100"}} {
		if err := emit(Item{"PK": str(PhotosPK), "SK": str(p.sk), p.attr: str(p.val)}); err != nil {
			return err
		}
	}
	r := rand.New(rand.NewPCG(2021, 7))
	start := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	step := 365 * 24 * time.Hour / PhotoCount
	var last time.Time
	for i := range PhotoCount {
		at := start.Add(time.Duration(i)*step + time.Duration(r.Int64N(int64(step/2)))).Truncate(time.Millisecond)
		if i == 600 {
			at = last // two photos in one millisecond: the ids' random bits order them
		}
		last = at
		if err := emit(Item{"PK": str(PhotosPK), "SK": str("PHOTO#" + ulid(at, r)), "Title": str(fmt.Sprintf("Photo %d", i+1)),
			"Bytes": num(200_000 + r.Int64N(3_000_000))}); err != nil {
			return err
		}
	}
	return nil
}

// complaints: AWS's complaint-management model, a metadata item beside
// a few communications keyed comm#time#id.
func complaints(emit func(Item) error) error {
	for c, comms := range []int{2, 3} {
		pk := fmt.Sprintf("COMPLAINT#%d", c+1)
		if err := emit(Item{"PK": str(pk), "SK": str("metadata"), "Status": str([]string{"open", "resolved"}[c]), "Customer": str("cust-" + fmt.Sprint(10+c))}); err != nil {
			return err
		}
		at := time.Date(2023, 4, 30, 12, 0, 24, 0, time.UTC).AddDate(0, 0, 3*c)
		for i := range comms {
			sk := fmt.Sprintf("comm#%s#comm%d", at.Add(time.Duration(i)*(5*time.Minute+17*time.Second)).Format("2006-01-02T15:04:05"), i+1)
			if err := emit(Item{"PK": str(pk), "SK": str(sk), "Text": str(fmt.Sprintf("message %d", i+1))}); err != nil {
				return err
			}
		}
	}
	return nil
}

// releases: revisions numbered by a Unix time (ten digits) after v1_Rel,
// the current copy v0_Rel, and a key that begins like a revision but is
// not one.
func releases(emit func(Item) error) error {
	for _, r := range []struct{ sk, version string }{
		{"v0_Rel", "3.0"}, {"v1_Rel", "1.0"}, {"v1690000000_Rel", "2.0"}, {"v1700000000_Rel", "3.0"}, {"v2_", "draft"},
	} {
		if err := emit(Item{"PK": str(ReleasesPK), "SK": str(r.sk), "Version": str(r.version)}); err != nil {
			return err
		}
	}
	return nil
}

// orders: the Developer Guide's orders, keyed by their creation date as a
// yyyyMMdd number: three customers ordering every few days of 2015.
func orders(emit func(Item) error) error {
	for c := range 3 {
		day := time.Date(2015, 1, 1+c, 0, 0, 0, 0, time.UTC)
		for n := 0; day.Year() == 2015; n++ {
			var date int64
			fmt.Sscan(day.Format("20060102"), &date)
			if err := emit(Item{"CustomerId": str(fmt.Sprintf("C%d", c+1)), "OrderCreationDate": num(date),
				"OrderId": str(fmt.Sprintf("o-%d-%04d", c+1, n)), "Total": num(int64(10 + (n*37+c)%200))}); err != nil {
				return err
			}
			day = day.AddDate(0, 0, 2+(n+c)%4)
		}
	}
	return nil
}

// ulid writes a ULID of t's millisecond with random bits from r.
func ulid(t time.Time, r *rand.Rand) string {
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	b := make([]byte, 26)
	ms := uint64(t.UnixMilli())
	for i := 9; i >= 0; i-- {
		b[i] = alphabet[ms&31]
		ms >>= 5
	}
	for i := 10; i < 26; i++ {
		b[i] = alphabet[r.IntN(32)]
	}
	return string(b)
}
