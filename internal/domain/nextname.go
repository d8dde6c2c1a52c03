package domain

// NextName guesses the name that follows name among siblings numbered or
// lettered in order: its last digit or letter counts up, carrying leftwards
// as an odometer does (C06 → C07, C09 → C10, AZ → BA, v9 → w0). ok is false
// when name does not end in a digit or letter, or the carry runs out of
// them (99 → none).
func NextName(name string) (string, bool) {
	b := []byte(name)
	for i := len(b) - 1; i >= 0; i-- {
		switch c := b[i]; {
		case c >= '0' && c < '9', c >= 'A' && c < 'Z', c >= 'a' && c < 'z':
			b[i]++
			return string(b), true
		case c == '9':
			b[i] = '0'
		case c == 'Z':
			b[i] = 'A'
		case c == 'z':
			b[i] = 'a'
		default:
			return "", false
		}
	}
	return "", false
}
