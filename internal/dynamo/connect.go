package dynamo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynascope/dynascope/internal/files"
)

// Target says where to connect. Empty fields defer to the AWS SDK's own
// resolution (AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL[_DYNAMODB], shared
// config and SSO).
type Target struct {
	Profile     string
	Region      string
	EndpointURL string
	MaxAttempts int // 0: the SDK default (3)
	// ThrottleAttempts, when above Attempts, is how many times a read
	// that is only being throttled is sent before it fails: a
	// user-facing session rides out a throttling storm (each wait at
	// most ThrottleMaxBackoff) while other failures keep MaxAttempts.
	ThrottleAttempts int
	// FailFast gives up at once on an endpoint that cannot be reached
	// (connection refused, unknown host, no answer within DialTimeout)
	// instead of backing off and retrying: a headless command should report
	// an outage in seconds. Throttling is still retried.
	FailFast bool
	// MaxBackoff caps the wait between attempts (0: the SDK's 20 s).
	MaxBackoff time.Duration
	// OnRetry, if set, hears of each retry before its wait: the attempt
	// that failed and why (for the status bar).
	OnRetry func(attempt int, err error)
	// Timeout is each attempt's deadline, from sending the request to the
	// end of the answer (0: DefaultTimeout). A server that accepts the
	// connection and never answers fails the attempt, which is retried as
	// the SDK retries; the last one ends in a *NoAnswerError.
	Timeout time.Duration
}

// DialTimeout bounds connecting to the endpoint when Target.FailFast is set.
const DialTimeout = 5 * time.Second

// DefaultTimeout is an attempt's deadline unless --timeout says otherwise:
// a Query page of 1 MB takes well under a second on any working link.
const DefaultTimeout = 10 * time.Second

// MaxTimeout is the longest --timeout accepted.
const MaxTimeout = 10 * time.Minute

func (t Target) timeout() time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return DefaultTimeout
}

// Attempts is how many times a request is sent before it fails.
func (t Target) Attempts() int {
	if t.MaxAttempts > 0 {
		return t.MaxAttempts
	}
	return retry.DefaultMaxAttempts
}

// GiveUpAfter is the longest a read waits on a server that never answers:
// every attempt's deadline and the longest backoff between them (the
// SDK's jittered wait before retry i is at most 2^i s, capped).
func (t Target) GiveUpAfter() time.Duration {
	maxBackoff := t.MaxBackoff
	if maxBackoff <= 0 {
		maxBackoff = retry.DefaultMaxBackoff
	}
	d := time.Duration(t.Attempts()) * t.timeout()
	for i := 1; i < t.Attempts(); i++ {
		d += min(time.Duration(1<<min(i, 30))*time.Second, maxBackoff)
	}
	return d
}

// NoAnswerError is a read the server never answered: every attempt ran
// out of its deadline. It names what the user can change.
type NoAnswerError struct {
	Endpoint string        // the URL, or "DynamoDB in REGION"
	Timeout  time.Duration // each attempt's deadline
	Attempts int           // attempts made
	Elapsed  time.Duration // from the first attempt's start to giving up: attempts and the waits between
	Err      error         // the last attempt's error
}

// Error says how long the read really waited, and the deadline each
// attempt had: "after 10 s" over 34 s of silence was a lie.
func (e *NoAnswerError) Error() string {
	waited := e.Elapsed.Round(100 * time.Millisecond)
	if e.Elapsed < time.Second {
		waited = e.Elapsed.Round(10 * time.Millisecond)
	}
	return fmt.Sprintf("no answer from %s in %s (%d attempts, each given %s)", e.Endpoint, Seconds(waited), e.Attempts, Seconds(e.Timeout))
}

func (e *NoAnswerError) Unwrap() error { return e.Err }

// Seconds writes a duration for people: "10 s", "1.5 s", "250ms".
func Seconds(d time.Duration) string {
	switch {
	case d%time.Second == 0:
		return fmt.Sprintf("%d s", d/time.Second)
	case d >= time.Second:
		return fmt.Sprintf("%g s", d.Seconds())
	}
	return d.String()
}

// noAnswer turns an operation whose attempts all timed out into a
// *NoAnswerError. It sits first in the stack, outside the retry loop, so
// it sees the final error and the attempts made.
func noAnswer(endpoint, region string, timeout time.Duration) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("dynascopeNoAnswer",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				start := time.Now()
				out, md, err := next.HandleInitialize(ctx, in)
				if err != nil && ctx.Err() == nil && unreachable(err) {
					return out, md, &UnreachableError{Host: hostOf(err, endpoint), Region: region, Err: err}
				}
				if err == nil || ctx.Err() != nil || !timedOut(err) {
					return out, md, err
				}
				attempts := 1
				if r, ok := retry.GetAttemptResults(md); ok && len(r.Results) > 0 {
					attempts = len(r.Results)
				}
				var max *retry.MaxAttemptsError
				if errors.As(err, &max) && max.Attempt > attempts {
					attempts = max.Attempt
				}
				return out, md, &NoAnswerError{Endpoint: endpoint, Timeout: timeout, Attempts: attempts, Elapsed: time.Since(start), Err: err}
			}), middleware.Before)
	}
}

// UnreachableError is a request that could not reach the server at all
// (refused, unknown host, no route): it names the host and the region
// tried, which is what the user can check.
type UnreachableError struct {
	Host, Region string
	Err          error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach %s (region %s)", e.Host, e.Region)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// unreachable reports a request that never reached a server: a dial that
// failed or a name that did not resolve.
func unreachable(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	return errors.As(err, &dns) || (errors.As(err, &op) && op.Op == "dial")
}

// hostOf is the host a failed request went to, from its URL; else where.
func hostOf(err error, where string) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			return u.Host
		}
	}
	return where
}

// timedOut reports an attempt that ran out of its deadline after the
// connection was made (a dial that timed out is "cannot reach").
func timedOut(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return false
	}
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

// Connect loads the AWS configuration the standard way and returns a
// DynamoDB client retrying each read on its own (standard mode, no
// process-wide retry quota).
func Connect(ctx context.Context, t Target) (*dynamodb.Client, aws.Config, error) {
	// The SDK's own log lines (e.g. "falling back to IMDSv1") would land on
	// stderr in the middle of the explorer's screen or a one-line error.
	opts := []func(*config.LoadOptions) error{config.WithLogger(logging.Nop{})}
	if t.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(t.Profile))
	}
	if t.Region != "" {
		opts = append(opts, config.WithRegion(t.Region))
	}
	opts = append(opts, config.WithRetryer(func() aws.Retryer {
		// The standard retryer, not the adaptive one: the adaptive mode's
		// client-side limiter, shared by the whole process, held normal
		// reads 1.6–4 s after a throttling storm. Each read backs off on
		// its own instead, and says so (OnRetry).
		return observedRetryer{on: t.OnRetry, attempts: t.Attempts(), throttleAttempts: t.ThrottleAttempts, RetryerV2: retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = max(t.Attempts(), t.ThrottleAttempts)
			// Each read has its budget of attempts. The SDK's default
			// also keeps one quota of retries for the whole process,
			// which a throttling storm empties (after ~50 failed
			// reads), and then every later throttle fails at once.
			so.RateLimiter = ratelimit.None
			if t.MaxBackoff > 0 {
				so.MaxBackoff = t.MaxBackoff
				so.Backoff = retry.NewExponentialJitterBackoff(t.MaxBackoff)
			}
			// A body cut off mid-answer is a network fault; every call
			// dynascope makes is a read, so sending it again is safe.
			so.Retryables = append(so.Retryables, retry.IsErrorRetryableFunc(truncatedIsRetryable), retry.IsErrorRetryableFunc(damagedIsRetryable))
			if t.FailFast {
				so.Retryables = append([]retry.IsErrorRetryable{retry.IsErrorRetryableFunc(unreachableIsFinal)}, so.Retryables...)
			}
		})}
	}))
	httpClient := awshttp.NewBuildableClient().WithTimeout(t.timeout())
	if t.FailFast {
		httpClient = httpClient.WithDialerOptions(func(d *net.Dialer) {
			d.Timeout = min(DialTimeout, t.timeout())
		})
	}
	opts = append(opts, config.WithHTTPClient(httpClient))
	local := LoopbackEndpoint(t.EndpointURL)
	if local {
		// A local server takes any credentials, and probing EC2 metadata for
		// them only adds seconds on a laptop.
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	checked, err := awsFiles()
	if err != nil {
		return nil, aws.Config{}, err
	}
	opts = append(opts, checked...)
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, aws.Config{}, Errorf("load AWS config", KindCredentials,
			"check --profile and ~/.aws/config, or use --demo", "%s", firstLine(err.Error()))
	}
	if cfg.Region == "" {
		return nil, cfg, Errorf("load AWS config", KindValidation,
			"pass --region or set AWS_REGION", "no region set")
	}
	if local && !hasCredentials(ctx, cfg) {
		// DynamoDB Local and dynalite accept any key; without this, pointing
		// dynascope at one on a machine with no AWS set-up fails for nothing.
		cfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
	}
	if bc, ok := cfg.HTTPClient.(*awshttp.BuildableClient); ok {
		// Wrapped once the configuration is loaded: loading it adds a CA
		// bundle (AWS_CA_BUNDLE) to a BuildableClient only.
		cfg.HTTPClient = ownBodies{bc}
	}
	where := t.where(cfg.Region)
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if t.EndpointURL != "" {
			o.BaseEndpoint = aws.String(t.EndpointURL)
		}
		o.APIOptions = append(o.APIOptions, noAnswer(where, cfg.Region, t.timeout()), checkedAnswers)
		// checkedAnswers checks the CRC before decoding, and fails the read
		// when it does not match; the SDK's check would only log it.
		o.DisableValidateResponseChecksum = true
	})
	return client, cfg, nil
}

// where names the server for messages: the endpoint without its user
// info (never a password in a message), or DynamoDB in the region.
func (t Target) where(region string) string {
	if t.EndpointURL != "" {
		return RedactEndpoint(t.EndpointURL)
	}
	return "DynamoDB in " + region
}

// awsFileVars name the files the SDK reads, with their defaults.
var awsFileVars = []struct {
	env  string
	def  func() string
	kind files.Kind
}{
	{"AWS_CONFIG_FILE", config.DefaultSharedConfigFilename, files.AWS},
	{"AWS_SHARED_CREDENTIALS_FILE", config.DefaultSharedCredentialsFilename, files.AWS},
	{"AWS_WEB_IDENTITY_TOKEN_FILE", func() string { return "" }, files.AWS},
}

// awsFiles checks the files the SDK will read before it reads them: the
// SDK reads whatever it is pointed at whole (a link to /dev/zero grew to
// gigabytes) or waits on a FIFO forever. The CA bundle is read here and
// handed over, so the SDK never opens it.
func awsFiles() ([]func(*config.LoadOptions) error, error) {
	refused := func(env string, err error) error {
		return &Error{Op: "load AWS config", Kind: KindValidation, Err: err, Msg: env + " " + err.Error(),
			Hint: "point " + env + " at a regular file, or unset it"}
	}
	for _, v := range awsFileVars {
		path := os.Getenv(v.env)
		if path == "" {
			path = v.def()
		}
		if path == "" {
			continue
		}
		if err := files.Check(path, v.kind); err != nil {
			return nil, refused(v.env, err)
		}
	}
	bundle := os.Getenv("AWS_CA_BUNDLE")
	if bundle == "" {
		return nil, nil
	}
	pem, err := files.Read(bundle, files.CABundle)
	if err != nil {
		return nil, refused("AWS_CA_BUNDLE", err)
	}
	return []func(*config.LoadOptions) error{config.WithCustomCABundle(bytes.NewReader(pem))}, nil
}

// observedRetryer is the SDK's retryer, telling OnRetry of each retry.
type observedRetryer struct {
	aws.RetryerV2
	on func(attempt int, err error)
	// attempts is the budget of a read failing otherwise than by
	// throttling; throttleAttempts (if larger) that of a throttled one,
	// whose waits are capped at ThrottleMaxBackoff.
	attempts, throttleAttempts int
}

// ThrottleMaxBackoff caps each wait of a throttled read beyond its
// first Attempts: ten attempts wait at most about 40 s in all, about
// 20 s on average.
const ThrottleMaxBackoff = 5 * time.Second

var throttles = retry.IsErrorThrottles(retry.DefaultThrottles)

func (o observedRetryer) RetryDelay(attempt int, err error) (time.Duration, error) {
	throttled := throttles.IsErrorThrottle(err) == aws.TrueTernary
	if o.throttleAttempts > o.attempts && !throttled && attempt >= o.attempts {
		// The SDK's one MaxAttempts is the throttled read's; any other
		// failure stops at its own budget, as the SDK would stop it.
		return 0, &retry.MaxAttemptsError{Attempt: attempt, Err: err}
	}
	if o.on != nil {
		o.on(attempt, err)
	}
	d, derr := o.RetryerV2.RetryDelay(attempt, err)
	if derr == nil && throttled && o.throttleAttempts > o.attempts && attempt >= o.attempts {
		d = min(d, ThrottleMaxBackoff)
	}
	return d, derr
}

func hasCredentials(ctx context.Context, cfg aws.Config) bool {
	if cfg.Credentials == nil {
		return false
	}
	_, err := cfg.Credentials.Retrieve(ctx)
	return err == nil
}

func truncatedIsRetryable(err error) aws.Ternary {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return aws.TrueTernary
	}
	return aws.UnknownTernary
}

// unreachableIsFinal stops retries of a request that never reached the
// endpoint: retrying a refused connection only delays the error.
func unreachableIsFinal(err error) aws.Ternary {
	var op *net.OpError
	var dns *net.DNSError
	if (errors.As(err, &op) && op.Op == "dial") || errors.As(err, &dns) {
		return aws.FalseTernary
	}
	return aws.UnknownTernary
}

// RedactEndpoint is an endpoint URL as it may be shown, copied or put in
// a message: any user info (`user:password@`) replaced by `***`, even in
// a URL that does not parse (the password may be why it does not).
func RedactEndpoint(endpoint string) string {
	rest := endpoint
	head := ""
	if i := strings.Index(rest, "://"); i >= 0 {
		head, rest = rest[:i+3], rest[i+3:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return endpoint
	}
	return head + "***" + endpoint[len(head)+at:]
}

// LoopbackEndpoint reports whether endpoint is a URL on this machine
// (localhost or a loopback address).
func LoopbackEndpoint(endpoint string) bool {
	if endpoint == "" {
		return false
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
