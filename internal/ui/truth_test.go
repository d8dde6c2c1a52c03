package ui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// keysDB is a table "T" (PK, SK strings) holding the given sort keys under
// partition "p".
func keysDB(t testing.TB, sks ...string) *memory.DB {
	t.Helper()
	db := memory.New()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("T"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}}); err != nil {
		t.Fatal(err)
	}
	for _, sk := range sks {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("T"), Item: dynamo.Item{"PK": s("p"), "SK": s(sk)}}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestTreeTitleCountsRows (25.6): the tree's title counts its rows by
// what they are: 11 items, 5 of them also prefixes, are 16 rows, "5
// prefixes · 11 items", never "11 children · 5 items".
func TestTreeTitleCountsRows(t *testing.T) {
	var sks []string
	for i := range 11 {
		sks = append(sks, fmt.Sprintf("k%02d", i))
		if i < 5 {
			sks = append(sks, fmt.Sprintf("k%02d#x", i))
		}
	}
	h := newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, sks...)})
	h.contains(t, "p · 5 prefixes · 11 items · all", "row 1 of 16")
	h = newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, "a#1", "b#1")})
	h.contains(t, "p · 2 prefixes · all", "row 1 of 2")
	h = newHarness(t, 120, 35, Config{Table: "T", PK: "p", Client: keysDB(t, "a#1", "b#1", "c")})
	h.contains(t, "p · 2 prefixes · 1 item · all", "row 1 of 3")
}

// peeker calls look before every read reaches the backend: the screen as
// it stands while that read is in flight.
type peeker struct {
	dynamo.Client
	look func()
}

func (p *peeker) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	p.look()
	return p.Client.Query(ctx, in, o...)
}

func (p *peeker) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	p.look()
	return p.Client.Scan(ctx, in, o...)
}

// firstScreens opens cfg at 120×35 after keys, and returns the screen as
// it stood when the first read after the keys was sent.
func firstScreen(t *testing.T, cfg Config, keys ...string) string {
	t.Helper()
	var h *harness
	var first *string
	armed := len(keys) == 0
	p := &peeker{Client: demoData(t)}
	p.look = func() {
		if armed && first == nil && h != nil {
			s := h.screen()
			first = &s
		}
	}
	cfg.Client, cfg.Now, cfg.Connection = p, demoClock, "DEMO"
	rec := record(cfg.Client)
	metered := dynamo.NewMetered(rec)
	cfg.Client, cfg.Session = metered, metered.Session
	h = &harness{t: t, m: New(cfg), rec: rec}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	h.run(h.m.Init())
	armed = true
	h.keys(keys...)
	if first == nil {
		t.Fatal("no read seen")
	}
	return *first
}

// TestTitlesBeforeTheFirstAnswer (25.7): while a view's first read is in
// flight its title says "reading…", never a count or "all".
func TestTitlesBeforeTheFirstAnswer(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		keys []string
	}{
		{"partitions", Config{Table: "Locations"}, nil},
		{"tree", Config{Table: "Locations", PK: "USA"}, nil},
		{"items", Config{Table: "Locations", PK: "USA"}, []string{"2"}},
		{"versions", Config{Table: "Equipment", PK: demo.DriftedPiece}, []string{"3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := firstScreen(t, c.cfg, c.keys...)
			title := strings.Split(s, "\n")[1]
			if !strings.Contains(title, "reading…") || strings.Contains(title, " 0 ") || strings.Contains(title, "· all") {
				t.Fatalf("before the first answer the title says more than reading…:\n%s", s)
			}
		})
	}
}

// TestTourSaysWhatWasRead (25.14, 25.11): the tour's request line names
// what the preflight read (the table list) beside the session's count,
// never "nothing read" beside "1 req"; esc says where it goes, and goes
// there: the tables from the start, back to the view T was pressed on.
func TestTourSaysWhatWasRead(t *testing.T) {
	rec := record(demoData(t))
	metered := dynamo.NewMetered(rec)
	cfg := Config{Connection: "DEMO", Tour: true, Now: demoClock, Connect: func(ctx context.Context) (Connected, error) {
		names, _, err := dynamo.ListTables(ctx, metered)
		return Connected{Client: metered, Session: metered.Session, TableNames: names}, err
	}}
	h := &harness{t: t, m: New(cfg), rec: rec}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	h.run(h.m.Init())
	h.contains(t, "Demo tour", "1 req ·", "read so far: the table list (ListTables: ", "tables), 1 request in all", "esc: the tables")
	if strings.Contains(h.screen(), "nothing read") {
		t.Fatalf("nothing read beside 1 req:\n%s", h.screen())
	}
	h.keys("3")
	h.contains(t, "versioned item")
	h.keys("T")
	h.contains(t, "Demo tour", "esc: back to Equipment › ")
	h.keys("esc")
	h.contains(t, "versioned item")
}

// TestMaskOneStandInPerValue (25.12, 27.18): a masked key is the same
// stand-ins, segment by segment as the README says, in the grid, the item
// view, its copy and the breadcrumb, also when the table's description
// came from the command line's preflight (around the masked client).
func TestMaskOneStandInPerValue(t *testing.T) {
	info, _, err := dynamo.DescribeTable(context.Background(), demoData(t), "Locations")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"described by the explorer", "described by the preflight"} {
		t.Run(name, func(t *testing.T) {
			cfg := Config{Mask: maskLocations, Table: "Locations", PK: "USA", Prefix: "NY#NEWYORKCITY#", Now: demoClock}
			if name == "described by the preflight" {
				cfg.Info = &info
			}
			h := newHarness(t, 120, 30, cfg)
			h.keys("tab")
			segmented := regexp.MustCompile(`‹m\d+›#‹m\d+›#‹m\d+›`)
			grid := segmented.FindString(strings.Split(h.screen(), "\n")[3])
			if grid == "" {
				t.Fatalf("the grid's sort key is not masked segment by segment:\n%s", h.screen())
			}
			h.keys("enter")
			h.contains(t, `"SK": "`+grid+`"`, "› "+grid)
			if copied := h.sent("y"); !strings.Contains(copied, grid) {
				t.Fatalf("the copy holds another stand-in than %s:\n%s", grid, copied)
			}
		})
	}
}

// TestTimeKeepsTheDrilledPrefix (25.19): from portland › amsg#, 4 lists
// amsg's messages (not everyone's) and says so; a range typed there runs
// under amsg#; 1 goes back to the tree where it was.
func TestTimeKeepsTheDrilledPrefix(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "ChatMessages", PK: "portland", Prefix: "amsg#", Now: demoClock})
	h.keys("4")
	h.contains(t, "portland › amsg# · ", "under amsg#, drilled in the tree", `:prefix="amsg#"`)
	rows := strings.Split(h.screen(), "\n")[5:15]
	for _, r := range rows {
		if strings.Contains(r, "msg#") && !strings.Contains(r, "amsg#") {
			t.Fatalf("another user's message listed under amsg#:\n%s", h.screen())
		}
	}
	h.keys("t")
	h.clearInput(40)
	h.typeText("2018-08")
	h.keys("enter")
	h.contains(t, "portland › amsg# · ", `amsg#2018-08`)
	h.keys("1")
	h.contains(t, "amsg# · ", " · delimiter ")
}
