// Package mototest starts moto's standalone server, a DynamoDB and
// DynamoDB Streams stand-in from PyPI (`pip install 'moto[server]'`), on a
// free loopback port for tests. dynalite has no streams; moto answers
// ListStreams, DescribeStream, GetShardIterator and GetRecords at the same
// endpoint as DynamoDB. Under CI=true a missing moto fails the run;
// elsewhere the tests that need it are skipped with the command that fixes
// it. moto keeps its tables for the life of the process: tests sharing a
// server use table names of their own.
package mototest

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynascope/dynascope/internal/dynamo/servertest"
)

// Install is the command that gets moto's server on a machine without it.
const Install = "pip install 'moto[server]'"

// Server is a running moto server.
type Server struct {
	Endpoint string
	proc     *servertest.Proc
}

const region = "us-east-1"

func creds() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider("test", "test", "")
}

// Client returns a DynamoDB client for the server, with static test
// credentials.
func (s *Server) Client() *dynamodb.Client {
	return client(s.Endpoint, 3)
}

func client(endpoint string, attempts int) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{Region: region, BaseEndpoint: aws.String(endpoint), Credentials: creds(), RetryMaxAttempts: attempts})
}

// Streams returns a DynamoDB Streams client for the same endpoint.
func (s *Server) Streams() *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{Region: region, BaseEndpoint: aws.String(s.Endpoint), Credentials: creds(), RetryMaxAttempts: 3})
}

// Stop ends the server.
func (s *Server) Stop() { s.proc.Stop() }

// command is how moto's server is started here: moto_server on PATH, else
// python3 -m moto.server (the same program, when only the module is
// installed).
func command(port int) (*exec.Cmd, error) {
	args := []string{"-H", "127.0.0.1", "-p", fmt.Sprint(port)}
	if p, err := exec.LookPath("moto_server"); err == nil {
		return exec.Command(p, args...), nil
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, fmt.Errorf("neither moto_server nor python3 is on PATH: %s", Install)
	}
	if err := exec.Command(py, "-c", "import moto.server, flask").Run(); err != nil {
		return nil, fmt.Errorf("moto's server is not installed for %s: %s", py, Install)
	}
	return exec.Command(py, append([]string{"-m", "moto.server"}, args...)...), nil
}

// spec is moto as servertest starts it: ready once ListTables answers,
// within 30 s (moto imports every service's models on its first start).
var spec = servertest.Spec{
	Name:    "moto",
	Command: command,
	Ready: func(ctx context.Context, endpoint string) error {
		_, err := client(endpoint, 1).ListTables(ctx, &dynamodb.ListTablesInput{})
		return err
	},
	Wait: 30 * time.Second,
}

// Launch starts a new moto server and waits until it answers ListTables.
func Launch() (*Server, error) {
	p, err := servertest.Launch(spec)
	if err != nil {
		return nil, err
	}
	return &Server{Endpoint: p.Endpoint, proc: p}, nil
}

// Start launches a moto server for one test, stopped when the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	return servertest.Start(tb, "moto", Install, Launch)
}

var shared = servertest.Shared[*Server]{Name: "moto", Fix: Install, Launch: Launch}

// Shared returns one moto server for the whole test binary; call
// StopShared from TestMain after m.Run.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	return shared.Get(tb)
}

// StopShared stops the server Shared started, if any.
func StopShared() { shared.Stop() }

// Created is err of a CreateTable whose name no other test of the binary
// uses, nil if the table exists: under load the SDK retries a CreateTable
// moto had already applied, and moto answers the retry with
// ResourceInUseException for the test's own table, made by the first try.
// It fits a caller that goes on to fill the table itself; one that stops
// on the error before filling it (demo.CreateKeyTable) is given Seeding.
func Created(err error) error {
	var inUse *types.ResourceInUseException
	if errors.As(err, &inUse) {
		return nil
	}
	return err
}

// Seeding is c for making a test's tables: its CreateTable, when the SDK
// sent it again because the first answer was lost (a reset or an attempt
// out of time on a loaded machine) and the server had made the table,
// answers with that table instead of ResourceInUseException. Anything
// that creates a table and then fills it (demo.CreateKeyTable) goes on
// to fill it: taking the retry's error as "exists" left TestPublishedEntities'
// ShopDesign empty on moto. A table already there before the first attempt
// is still ResourceInUseException: two tests sharing a server use table
// names of their own.
func Seeding(c *dynamodb.Client) *Seeder { return &Seeder{c} }

// Seeder is a client whose CreateTable survives its own retry: Seeding.
type Seeder struct{ *dynamodb.Client }

// CreateTable creates a table as the client does, counting its attempts.
func (s *Seeder) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	attempts := 0
	out, err := s.Client.CreateTable(ctx, in, append(optFns, countAttempts(&attempts))...)
	var inUse *types.ResourceInUseException
	if !errors.As(err, &inUse) || attempts < 2 {
		return out, err
	}
	d, derr := s.Client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: in.TableName})
	if derr != nil {
		return nil, err
	}
	return &dynamodb.CreateTableOutput{TableDescription: d.Table}, nil
}

// countAttempts counts the times a call is sent: a step after the SDK's
// retry loop runs once an attempt.
func countAttempts(n *int) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("mototestAttempts",
				func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
					*n++
					return next.HandleFinalize(ctx, in)
				}), middleware.After)
		})
	}
}
