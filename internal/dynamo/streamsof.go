package dynamo

// StreamsOf is the Streams client behind a client, when the backend serves
// both APIs (the embedded one): through the metering and masking layers.
// nil when it does not.
func StreamsOf(c Client) StreamsClient {
	for c != nil {
		if sc, ok := c.(StreamsClient); ok {
			return sc
		}
		switch w := c.(type) {
		case *Metered:
			c = w.Client
		case *Masked:
			c = w.Client
		default:
			return nil
		}
	}
	return nil
}

// MaskChange is a change as it may be shown: its keys and images masked
// as the client masks items (values only; the names changed stay).
func (m *Masked) MaskChange(table string, c Change) Change {
	c.Keys, c.Old, c.New = m.maybe(table, c.Keys), m.maybe(table, c.Old), m.maybe(table, c.New)
	return c
}

func (m *Masked) maybe(table string, it Item) Item {
	if it == nil {
		return nil
	}
	return m.item(table, it)
}
