package ui

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// smoke runs the real tea.Program over the demo, types keys and waits for
// want to appear on the terminal.
func smoke(t *testing.T, cfg Config, keys []string, want string) {
	metered := dynamo.NewMetered(demoData(t))
	cfg.Client, cfg.Session, cfg.Connection = metered, metered.Session, "DEMO"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	if len(keys) > 0 {
		// The renderer sends only what changed, so wait for one thing,
		// then type, then wait for the next.
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("loaded")) },
			teatest.WithDuration(5*time.Second))
		for _, k := range keys {
			tm.Send(keyPress(k))
		}
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
		teatest.WithDuration(5*time.Second))
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

func put(t *testing.T, db *memory.DB, table string, attrs map[string]string) {
	t.Helper()
	item := map[string]types.AttributeValue{}
	for k, v := range attrs {
		item[k] = &types.AttributeValueMemberS{Value: v}
	}
	if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatal(err)
	}
}
