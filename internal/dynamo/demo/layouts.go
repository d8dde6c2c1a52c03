package demo

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The layouts of AWS's public design-pattern and version-control examples,
// as people write them on real tables: an online shop whose overloaded
// GSI1 shares the table's sort key (with GSI2 and an inverted index), a
// device state log keyed State#Date with several states before the time,
// bare v0…vN versions with a Latest pointer, and time-based versions
// beside a Metadata item. Their names sort after the older tables', so
// the tables list keeps its first rows.
const (
	ShopTable = "Shop"

	StateTable = "StateLog"
	// StateDevice logs every state; its keys are STATE#time.
	StateDevice = "d#12345"
	// StateIndex is keyed EscalatedTo / State#Date.
	StateIndex = "EscalatedTo"

	PartVersionsTable = "VersionNums"
	// LaggingPart's v0 says Latest=2, but v2 was never written (a stream
	// that lags): the one drift of the table.
	LaggingPart = "Part#3"

	PartStatesTable = "VersionTimes"
	// StatePart holds PartStateCount ISO-timed states beside one Metadata.
	StatePart      = "Equipment#1"
	PartStateCount = 60
)

// StatePrefixes are the states written before the time in StateTable.
var StatePrefixes = []string{"NORMAL", "WARNING1", "WARNING2", "WARNING3"}

// layoutStart is when the layouts' clocks start: AWS's examples' 2020.
var layoutStart = time.Date(2020, 4, 24, 14, 0, 0, 0, time.UTC)

func layoutTables() []*dynamodb.CreateTableInput {
	shop := table(ShopTable, []types.AttributeDefinition{attr("PK", "S"), attr("SK", "S"), attr("GSI1PK", "S"), attr("GSI2PK", "S"), attr("GSI2SK", "S")}, "PK", "SK")
	shop.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
		{IndexName: aws.String("GSI1"), KeySchema: key("GSI1PK", "SK"), Projection: projection(types.ProjectionTypeAll)},
		{IndexName: aws.String("GSI2"), KeySchema: key("GSI2PK", "GSI2SK"), Projection: projection(types.ProjectionTypeInclude, "Status", "Total")},
		{IndexName: aws.String("Inverted"), KeySchema: key("SK", "PK"), Projection: projection(types.ProjectionTypeKeysOnly)},
	}
	state := table(StateTable, []types.AttributeDefinition{attr("DeviceID", "S"), attr("State#Date", "S"), attr("EscalatedTo", "S")}, "DeviceID", "State#Date")
	state.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
		{IndexName: aws.String(StateIndex), KeySchema: key("EscalatedTo", "State#Date"), Projection: projection(types.ProjectionTypeAll)},
	}
	return []*dynamodb.CreateTableInput{
		withStream(shop), withStream(state),
		table(PartVersionsTable, []types.AttributeDefinition{attr("ID", "S"), attr("Version", "S")}, "ID", "Version"),
		table(PartStatesTable, []types.AttributeDefinition{attr("ID", "S"), attr("SK", "S")}, "ID", "SK"),
	}
}

// onlineShop: customers (c#) with their orders (o#) in one partition,
// order lines under the order, products (p#) and warehouse stock (w#).
// GSI1 is keyed GSI1PK / SK: one index answers "orders by status" and
// "products by category", its sort key shared with the table's. GSI2 is
// keyed GSI2PK / GSI2SK: order lines by product and date, stock by
// product. Inverted is keyed SK / PK: who points at this key.
func onlineShop(emit func(Item) error) error {
	products := []struct{ id, category string }{
		{"p#1001", "books"}, {"p#1002", "books"}, {"p#1003", "games"}, {"p#1004", "games"}, {"p#1005", "garden"},
		{"p#1006", "garden"}, {"p#1007", "kitchen"}, {"p#1008", "kitchen"}, {"p#1009", "toys"}, {"p#1010", "toys"},
	}
	statuses := []string{"PLACED", "SHIPPED", "DELIVERED", "DELIVERED", "RETURNED"}
	for i, p := range products {
		if err := emit(Item{"PK": str(p.id), "SK": str(p.id), "GSI1PK": str("category#" + p.category),
			"Name": str(fmt.Sprintf("Product %d", i+1)), "Price": num(int64(5 + 7*i))}); err != nil {
			return err
		}
		for w := 1; w <= 3; w++ {
			if err := emit(Item{"PK": str(fmt.Sprintf("w#%d", w)), "SK": str(p.id), "GSI2PK": str(p.id), "GSI2SK": str(fmt.Sprintf("w#%d", w)),
				"Stock": num(int64((i*7 + w*13) % 40))}); err != nil {
				return err
			}
		}
	}
	order := 0
	for c := 1; c <= 8; c++ {
		cust := fmt.Sprintf("c#%03d", c)
		if err := emit(Item{"PK": str(cust), "SK": str(cust), "Name": str(fmt.Sprintf("Customer %d", c)),
			"Email": str(fmt.Sprintf("customer%d@example.com", c))}); err != nil {
			return err
		}
		for range 1 + c%4 {
			order++
			id := fmt.Sprintf("o#%05d", 10000+order)
			day := layoutStart.AddDate(0, 0, order).Format("2006-01-02")
			status := statuses[order%len(statuses)]
			total := int64(0)
			for l := range 1 + order%3 {
				p := products[(order*3+l)%len(products)]
				qty := int64(1 + (order+l)%3)
				total += qty * int64(5+7*((order*3+l)%len(products)))
				if err := emit(Item{"PK": str(id), "SK": str(p.id), "GSI2PK": str(p.id), "GSI2SK": str(day + "#" + id),
					"Quantity": num(qty)}); err != nil {
					return err
				}
			}
			if err := emit(Item{"PK": str(cust), "SK": str(id), "GSI1PK": str("status#" + status), "GSI2PK": str(cust), "GSI2SK": str(day),
				"Status": str(status), "Total": num(total), "OrderDate": str(day)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// deviceStates: AWS's device state log, keyed DeviceID / State#Date
// (STATE#2020-04-24T14:40:00), where warnings are escalated to an
// operator named in EscalatedTo (the index's partition key).
func deviceStates(emit func(Item) error) error {
	operators := []string{"Sara", "Liz", "Mateo"}
	devices := []string{StateDevice, "d#12346", "d#12347"}
	for d, dev := range devices {
		at := layoutStart.Add(time.Duration(d) * 7 * time.Minute)
		for i := range 120 - 40*d {
			at = at.Add(time.Duration(5+(i*7+d)%20) * time.Minute)
			state := StatePrefixes[(i*5+d)%len(StatePrefixes)]
			it := Item{"DeviceID": str(dev), "State#Date": str(state + "#" + at.Format("2006-01-02T15:04:05")),
				"State": str(state), "Reading": dec(fmt.Sprintf("%.1f", 20+float64((i*13+d)%60)/2))}
			if state != "NORMAL" && i%2 == 0 {
				it["EscalatedTo"] = str(operators[(i+d)%len(operators)])
			}
			if err := emit(it); err != nil {
				return err
			}
		}
	}
	return nil
}

// partVersions: AWS's number-based versions. v0 is the current copy with
// Latest, the newest revision's number; v1…vN are the revisions.
func partVersions(emit func(Item) error) error {
	states := []string{"NORMAL", "WARNING1", "NORMAL", "WARNING2", "NORMAL", "ERROR"}
	rev := func(part string, n int) Item {
		return Item{"ID": str(part), "Version": str(fmt.Sprintf("v%d", n)), "State": str(states[n%len(states)]),
			"Time": str(layoutStart.Add(time.Duration(n) * 2 * time.Minute).Format("2006-01-02T15:04:05"))}
	}
	for _, p := range []struct {
		id      string
		written int // revisions v1…v written
		latest  int // what v0 says
	}{{"Part#1", 12, 12}, {"Part#2", 3, 3}, {LaggingPart, 1, 2}} {
		for n := 1; n <= p.written; n++ {
			if err := emit(rev(p.id, n)); err != nil {
				return err
			}
		}
		cur := rev(p.id, p.latest) // v0 already holds what v<latest> will
		cur["Version"], cur["Latest"] = str("v0"), num(int64(p.latest))
		if err := emit(cur); err != nil {
			return err
		}
	}
	return nil
}

// partStates: AWS's time-based versions, a state every two minutes keyed
// by its ISO time, beside one Metadata item.
func partStates(emit func(Item) error) error {
	states := []string{"NORMAL", "NORMAL", "WARNING1", "NORMAL", "WARNING2"}
	for _, part := range []string{StatePart, "Equipment#2"} {
		if err := emit(Item{"ID": str(part), "SK": str("Metadata"), "Name": str("Press " + part[len(part)-1:]),
			"FactoryID": str("Factory#1"), "LineID": str("Line#3")}); err != nil {
			return err
		}
		for i := range PartStateCount {
			at := time.Date(2020, 11, 12, 20, 4, 0, 0, time.UTC).Add(time.Duration(i) * 2 * time.Minute)
			if err := emit(Item{"ID": str(part), "SK": str(at.Format("2006-01-02T15:04:05")), "State": str(states[i%len(states)])}); err != nil {
				return err
			}
		}
	}
	return nil
}
