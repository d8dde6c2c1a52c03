package dynamo

// NextFollowInterval exposes the poll interval rule to the tests.
var NextFollowInterval = nextInterval
var CheckCursor = checkCursor
var CheckItems = checkItems
var CheckTableCursor = checkTableCursor
var CheckAnswerValues = checkAnswerValues
var BeforeKey = beforeKey
