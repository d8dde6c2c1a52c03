package dynamo

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"
)

// Target says where to connect. Empty fields defer to the AWS SDK's own
// resolution (AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL[_DYNAMODB], shared
// config and SSO).
type Target struct {
	Profile     string
	Region      string
	EndpointURL string
	MaxAttempts int // 0: the SDK default for adaptive mode
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
}

// DialTimeout bounds connecting to the endpoint when Target.FailFast is set.
const DialTimeout = 5 * time.Second

// Connect loads the AWS configuration the standard way and returns a
// DynamoDB client using the adaptive retryer.
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
		return observedRetryer{on: t.OnRetry, RetryerV2: retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
			o.StandardOptions = append(o.StandardOptions, func(so *retry.StandardOptions) {
				if t.MaxAttempts > 0 {
					so.MaxAttempts = t.MaxAttempts
				}
				if t.MaxBackoff > 0 {
					so.MaxBackoff = t.MaxBackoff
					so.Backoff = retry.NewExponentialJitterBackoff(t.MaxBackoff)
				}
				// A body cut off mid-answer is a network fault; every call
				// dynascope makes is a read, so sending it again is safe.
				so.Retryables = append(so.Retryables, retry.IsErrorRetryableFunc(truncatedIsRetryable))
				if t.FailFast {
					so.Retryables = append([]retry.IsErrorRetryable{retry.IsErrorRetryableFunc(unreachableIsFinal)}, so.Retryables...)
				}
			})
		})}
	}))
	if t.FailFast {
		opts = append(opts, config.WithHTTPClient(awshttp.NewBuildableClient().WithDialerOptions(func(d *net.Dialer) {
			d.Timeout = DialTimeout
		})))
	}
	local := LoopbackEndpoint(t.EndpointURL)
	if local {
		// A local server takes any credentials, and probing EC2 metadata for
		// them only adds seconds on a laptop.
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
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
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if t.EndpointURL != "" {
			o.BaseEndpoint = aws.String(t.EndpointURL)
		}
	})
	return client, cfg, nil
}

// observedRetryer is the SDK's retryer, telling OnRetry of each retry.
type observedRetryer struct {
	aws.RetryerV2
	on func(attempt int, err error)
}

func (o observedRetryer) RetryDelay(attempt int, err error) (time.Duration, error) {
	if o.on != nil {
		o.on(attempt, err)
	}
	return o.RetryerV2.RetryDelay(attempt, err)
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
