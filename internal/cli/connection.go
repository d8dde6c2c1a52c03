package cli

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/export"
)

// globals are the flags every command shares.
type globals struct {
	profile, region, endpoint string
	demo                      bool
	debugLog                  string
	configFile                string
	// fromConfig: which of profile, region and endpoint the configuration
	// file gave (no flag did), so that a command written for the user to
	// paste leaves them to the file it reads again.
	fromConfig       struct{ profile, region, endpoint bool }
	mask             []string // --mask: attributes whose values are never shown
	data             dataFlags
	dataInBackground bool          // --data loads while the explorer runs, rather than before the command
	stderr           io.Writer     // for --data's progress and summary
	timeout          time.Duration // each attempt's deadline; 0: the configuration's, else dynamo.DefaultTimeout
	closers          []io.Closer   // closed when the command ends (the debug log)
	// session is the explorer's, made before it connects so that its
	// status bar counts (and says the retries of) the connection's first
	// requests; nil: each connection makes its own.
	session *dynamo.Session
	// headless is the session a headless command read through, whose
	// retries are said on stderr when it ends.
	headless *dynamo.Session
	// live is the demo's live workload, for the explorer on --demo.
	live *liveDemo
	// budget is the RCU budget the headless command read under, for the
	// line Run adds where a read that finished whole spent past it.
	budget spendLimit
}

// newSession is the session a connection counts its requests in.
func (g *globals) newSession() *dynamo.Session {
	if g.session != nil {
		return g.session
	}
	return &dynamo.Session{}
}

// close ends what the command opened.
func (g *globals) close() {
	for _, c := range g.closers {
		c.Close()
	}
	g.closers = nil
}

// debug starts --debug-log, if given, for the session.
func (g *globals) debug(s *dynamo.Session) error {
	if g.debugLog == "" {
		return nil
	}
	c, err := openDebugLog(g.debugLog, s)
	if err != nil {
		return err
	}
	g.closers = append(g.closers, c)
	return nil
}

// connection is what a command reads through.
type connection struct {
	client *dynamo.Metered
	label  string // for people: DEMO, DATA: paths, or profile · region · endpoint, never credentials
	// estimated: the capacity is computed by the embedded backend for data
	// that is not in DynamoDB, so it is what DynamoDB would charge.
	estimated bool
	load      dynamo.DataLoad // --data still loading in the background (the explorer's), else nil
	// where is what configured environments are matched against (zero for
	// --demo and --data); env is the one matched, if any.
	where config.Connection
	env   *config.Environment
	// endpoint is the endpoint the client was given ("" for AWS's own
	// for the region, which where names), from a flag or the AWS settings.
	endpoint string
	// shown is env for the explorer, which asks at every frame while the
	// account match may set it from a read's goroutine.
	shown atomic.Pointer[config.Environment]
}

// environmentNow is the environment matched so far (nil: none), safe to
// ask from the explorer while a read matches the account.
func (c *connection) environmentNow() *config.Environment { return c.shown.Load() }

// environment matches the connection against the configured environments
// (again once its account is known, from a table's ARN).
func (g *globals) environment(conn *connection) error {
	if conn.where == (config.Connection{}) {
		return nil
	}
	conf, err := g.loadConfig()
	if err != nil {
		return err
	}
	conn.env = nil
	if e, ok := conf.Environment(conn.where); ok {
		conn.env = &e
	}
	conn.shown.Store(conn.env)
	return nil
}

// matchAccount matches the connection again once the first table
// described names its account, where an environment names accounts.
func (g *globals) matchAccount(conn *connection) {
	conf, err := g.loadConfig()
	if err != nil || !slices.ContainsFunc(conf.Environments, func(e config.Environment) bool { return e.Account != "" }) {
		return
	}
	var once sync.Once
	conn.client.Described = func(arn string) {
		once.Do(func() {
			conn.where.Account = accountOf(arn)
			if e, ok := conf.Environment(conn.where); ok {
				conn.env = &e
				conn.shown.Store(&e)
				g.sayEnvironment(conn)
			}
		})
	}
}

// accountOf is the account in an ARN ("" where there is none).
func accountOf(arn string) string {
	return dynamo.TableInfo{ARN: arn}.Account()
}

// envLabel is the connection's environment label with the connection
// ("PROD: profile prod · eu-west-1"), or "" where none matches.
func (c *connection) envLabel() string {
	if c.env == nil {
		return ""
	}
	return export.OneLine(c.env.Label) + ": " + c.label
}

// named is the connection as a comparison names a side: the
// environment it matches so far before its label ("PROD: us-east-1 ·
// …"), else its label; the explorer's = names both sides so too.
func (c *connection) named() string {
	if e := c.environmentNow(); e != nil {
		return export.OneLine(e.Label) + ": " + c.label
	}
	return c.label
}

// sayEnvironment prints a headless command's environment on stderr, so a
// production run says so wherever its output goes.
func (g *globals) sayEnvironment(conn *connection) {
	if g.session == nil && g.stderr != nil && conn.env != nil {
		fmt.Fprintf(g.stderr, "environment %s\n", conn.envLabel())
	}
}

// loadDemo builds the embedded demo database; tests swap in a cached one.
var loadDemo = func(ctx context.Context) (*memory.DB, error) { return demo.Load(ctx) }

func (g *globals) validate() error {
	if g.demo && (g.endpoint != "" || g.profile != "") {
		return usage("drop --endpoint-url and --profile, or drop --demo", "--demo runs on the embedded demo database, not on a server")
	}
	if g.timeout < 0 || g.timeout > dynamo.MaxTimeout {
		return usage("give a duration such as 10s or 1m, at most "+dynamo.MaxTimeout.String(), "--timeout %v is out of range", g.timeout)
	}
	if g.endpoint != "" {
		u, err := url.Parse(g.endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usage("use the form http://localhost:8000", "--endpoint-url %q is not an http(s) URL", dynamo.RedactEndpoint(g.endpoint))
		}
	}
	return nil
}

// connect opens the demo database or a DynamoDB client, metered. Requests
// that cannot reach the endpoint fail at once rather than retrying for a
// minute: at 3 a.m. a typo in --endpoint-url should say so immediately.
func (g *globals) connect(ctx context.Context) (*connection, error) {
	if err := g.validateData(); err != nil {
		return nil, err
	}
	if g.data.given() {
		return g.connectData(ctx)
	}
	if err := g.settle(); err != nil {
		return nil, err
	}
	if g.demo {
		db, err := loadDemo(ctx)
		if err != nil {
			return nil, err
		}
		m := &dynamo.Metered{Client: db, Session: g.newSession()}
		if err := g.debug(m.Session); err != nil {
			return nil, err
		}
		return &connection{client: m, label: "DEMO"}, nil
	}
	session := g.newSession()
	if g.session == nil {
		g.headless = session
	}
	if err := g.debug(session); err != nil {
		return nil, err
	}
	c, cfg, err := g.dynamoClient(ctx, 0, session.NoteRetry)
	if err != nil {
		return nil, err
	}
	endpoint := aws.ToString(c.Options().BaseEndpoint)
	if endpoint == "" {
		endpoint = config.AWSEndpoint(cfg.Region)
	}
	conn := &connection{client: &dynamo.Metered{Client: c, Session: session}, label: label(g.profileName(), cfg.Region, c.Options().BaseEndpoint),
		where: config.Connection{Profile: g.profileName(), Region: cfg.Region, EndpointURL: endpoint}, endpoint: aws.ToString(c.Options().BaseEndpoint)}
	if err := g.environment(conn); err != nil {
		return nil, err
	}
	g.sayEnvironment(conn)
	if conn.env == nil {
		g.matchAccount(conn)
	}
	return conn, nil
}

// settle fills what no flag gave from the configuration file and checks
// the connection flags, without reading anything (again, harmlessly, on
// a second call).
func (g *globals) settle() error {
	if !g.demo {
		// The configuration file's defaults, where no flag was given.
		conf, err := g.loadConfig()
		if err != nil {
			return err
		}
		if g.profile == "" && conf.Profile != "" {
			g.profile, g.fromConfig.profile = conf.Profile, true
		}
		if g.region == "" && conf.Region != "" {
			g.region, g.fromConfig.region = conf.Region, true
		}
		if g.endpoint == "" && conf.EndpointURL != "" {
			g.endpoint, g.fromConfig.endpoint = conf.EndpointURL, true
		}
		if g.timeout == 0 {
			g.timeout = conf.Timeout()
		}
	}
	return g.validate()
}

func (g *globals) dynamoClient(ctx context.Context, attempts int, onRetry func(int, error)) (*dynamodb.Client, aws.Config, error) {
	return dynamo.Connect(ctx, g.target(attempts, onRetry))
}

func (g *globals) target(attempts int, onRetry func(int, error)) dynamo.Target {
	t := dynamo.Target{Profile: g.profile, Region: g.region, EndpointURL: g.endpoint, MaxAttempts: attempts, FailFast: true, OnRetry: onRetry, Timeout: g.timeout}
	if g.session != nil {
		// Someone is watching the explorer: a throttled read keeps
		// backing off (and the status bar says so) rather than failing
		// after three attempts.
		t.ThrottleAttempts = ExplorerThrottleAttempts
	}
	return t
}

// ExplorerThrottleAttempts is how many times the explorer sends a read
// that is being throttled before it reports the failure.
const ExplorerThrottleAttempts = 10

// giveUpAfter is the longest one read waits on a server that never
// answers (all its attempts and the waits between them).
func (g *globals) giveUpAfter() time.Duration { return g.target(0, nil).GiveUpAfter() }

// profileName is the profile the SDK will use, if one was named.
func (g *globals) profileName() string {
	if g.profile != "" {
		return g.profile
	}
	return os.Getenv("AWS_PROFILE")
}

// label describes where dynascope reads: `profile NAME · REGION · ENDPOINT`,
// leaving out what is unset. An endpoint's user:password part is `***`.
func label(profile, region string, endpoint *string) string {
	var parts []string
	if profile != "" {
		parts = append(parts, "profile "+profile)
	}
	if region != "" {
		parts = append(parts, region)
	}
	if e := aws.ToString(endpoint); e != "" {
		parts = append(parts, dynamo.RedactEndpoint(e))
	}
	return export.OneLine(strings.Join(parts, " · "))
}
