package memory

import "github.com/aws/smithy-go"

// validation is DynamoDB's ValidationException: the SDK surfaces it as a
// generic API error with that code, from the real service and from dynalite.
func validation(msg string) error {
	return &smithy.GenericAPIError{Code: "ValidationException", Message: msg, Fault: smithy.FaultClient}
}
