package dynalitetest

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// TestDroppedRequestLeavesTheServerUp: a client that sends half a request
// and hangs up (a cancelled read) used to kill dynalite 4.0.0, and with it
// every later test on the shared server; guard.js keeps it up.
func TestDroppedRequestLeavesTheServerUp(t *testing.T) {
	s := Start(t)
	for range 3 {
		conn, err := net.Dial("tcp", strings.TrimPrefix(s.Endpoint, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Write([]byte("POST / HTTP/1.1\r\nHost: dynalite\r\nContent-Length: 1000\r\n" +
			"X-Amz-Target: DynamoDB_20120810.ListTables\r\n\r\n{\"Limit\":"))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // let the server start reading the body
		conn.Close()
	}
	time.Sleep(200 * time.Millisecond) // the hang-up reaches the server
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.Client().ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("dynalite did not survive a dropped request: %v", err)
	}
}
