package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Target says where to connect. Empty fields defer to the AWS SDK's own
// resolution (AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL[_DYNAMODB], shared
// config and SSO).
type Target struct {
	Profile     string
	Region      string
	EndpointURL string
	MaxAttempts int // 0: the SDK default for adaptive mode
}

// Connect loads the AWS configuration the standard way and returns a
// DynamoDB client using the adaptive retryer.
func Connect(ctx context.Context, t Target) (*dynamodb.Client, aws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if t.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(t.Profile))
	}
	if t.Region != "" {
		opts = append(opts, config.WithRegion(t.Region))
	}
	opts = append(opts, config.WithRetryer(func() aws.Retryer {
		r := aws.Retryer(retry.NewAdaptiveMode())
		if t.MaxAttempts > 0 {
			r = retry.AddWithMaxAttempts(r, t.MaxAttempts)
		}
		return r
	}))
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, aws.Config{}, Errorf("load AWS config", KindCredentials,
			"check --profile and ~/.aws/config, or use --demo", "%s", firstLine(err.Error()))
	}
	if cfg.Region == "" {
		return nil, cfg, Errorf("load AWS config", KindValidation,
			"pass --region or set AWS_REGION", "no region set")
	}
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if t.EndpointURL != "" {
			o.BaseEndpoint = aws.String(t.EndpointURL)
		}
	})
	return client, cfg, nil
}
