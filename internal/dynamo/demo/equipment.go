package demo

import (
	"fmt"
	"math/rand/v2"
)

// The version-history anomalies the demo holds on purpose, so that drift
// detection has something to find.
const (
	// DriftedPiece's DriftedItem has a v0_ copy that no longer matches its
	// newest revision: the classic half-done update (Status differs).
	DriftedPiece = "Equipment_1"
	DriftedItem  = "Audit#PART-7"
	// GapPiece's Audit is missing a revision number (v4_ between v3_ and v5_).
	GapPiece = "Equipment_2"
	// MissingCurrentPiece's Audit has revisions but no v0_ copy.
	MissingCurrentPiece = "Equipment_3"
	// DuplicatePiece's Audit holds v1_ twice: v1_Audit and v001_Audit.
	DuplicatePiece = "Equipment_4"
	// LongHistoryPiece's Audit has 1,000 revisions, zero-padded (v0001_…).
	LongHistoryPiece     = "Equipment_5"
	LongHistoryRevisions = 1000
	// PaddedPiece uses the guide's v001_ form.
	PaddedPiece = "Equipment_6"
	// EquipmentPieces is how many pieces of equipment the table holds.
	EquipmentPieces = 200
)

var auditors = []string{"Auditor-Ada", "Auditor-Grace", "Auditor-Linus", "Auditor-Margaret", "Auditor-Ken"}
var statuses = []string{"PASS", "PASS", "PASS", "FAIL", "PENDING"}

func audit(r *rand.Rand, piece, name string, version int) Item {
	st := statuses[r.IntN(len(statuses))]
	return Item{
		"Auditor":   str(auditors[r.IntN(len(auditors))]),
		"Status":    str(st),
		"Score":     num(int64(50 + r.IntN(51))),
		"Notes":     str(fmt.Sprintf("%s %s revision %d", piece, name, version)),
		"AuditedOn": str(fmt.Sprintf("2026-%02d-%02dT%02d:00:00Z", 1+(version/28)%10, 1+version%28, 8+r.IntN(9))),
		"Checks": mapOf("brakes", mapOf("status", str(statuses[r.IntN(3)]), "pressure", num(int64(90+r.IntN(20)))),
			"wiring", mapOf("status", str(st)), "firmware", str(fmt.Sprintf("v%d.%d", 1+version/5, version%5))),
		"Findings": list(str([]string{"none", "loose bolt", "worn belt", "label faded"}[r.IntN(4)])),
	}
}

func withKey(it Item, pk, sk string) Item {
	out := Item{"PK": str(pk), "SK": str(sk)}
	for k, v := range it {
		out[k] = v
	}
	return out
}

// history emits revisions 1..n of one logical item and, when current, a v0_
// copy of the newest. format renders a version's sort-key prefix.
func history(emit func(Item) error, r *rand.Rand, piece, name string, nums []int, format func(int) string, current bool) error {
	var newest Item
	for _, v := range nums {
		it := audit(r, piece, name, v)
		newest = it
		if err := emit(withKey(it, piece, format(v)+name)); err != nil {
			return err
		}
	}
	if !current || newest == nil {
		return nil
	}
	return emit(withKey(newest, piece, format(0)+name))
}

func plain(v int) string { return fmt.Sprintf("v%d_", v) }

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func equipment(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(7, 7))
	for i := 1; i <= EquipmentPieces; i++ {
		piece := fmt.Sprintf("Equipment_%d", i)
		var err error
		switch piece {
		case DriftedPiece:
			// Emit the drifted item by hand: its newest revision must say FAIL.
			err = history(emit, r, piece, "Audit", seq(3), plain, true)
			if err == nil {
				err = driftedHistory(emit, r)
			}
		case GapPiece:
			err = history(emit, r, piece, "Audit", []int{1, 2, 3, 5, 6}, plain, true)
		case MissingCurrentPiece:
			err = history(emit, r, piece, "Audit", seq(4), plain, false)
		case DuplicatePiece:
			err = history(emit, r, piece, "Audit", seq(3), plain, true)
			if err == nil {
				err = emit(withKey(audit(r, piece, "Audit", 1), piece, "v001_Audit"))
			}
		case LongHistoryPiece:
			err = history(emit, r, piece, "Audit", seq(LongHistoryRevisions), func(v int) string { return fmt.Sprintf("v%04d_", v) }, true)
		case PaddedPiece:
			err = history(emit, r, piece, "Audit", seq(12), func(v int) string { return fmt.Sprintf("v%03d_", v) }, true)
		default:
			err = history(emit, r, piece, "Audit", seq(1+r.IntN(6)), plain, true)
			if err == nil && r.IntN(3) == 0 {
				part := fmt.Sprintf("Audit#PART-%d", 1+r.IntN(9))
				err = history(emit, r, piece, part, seq(1+r.IntN(4)), plain, true)
			}
		}
		if err != nil {
			return err
		}
		if err := emit(Item{"PK": str(piece), "SK": str("metadata"), "Model": str(fmt.Sprintf("X-%03d", r.IntN(500))),
			"Site": str([]string{"Plant-A", "Plant-B", "Depot-C"}[r.IntN(3)])}); err != nil {
			return err
		}
	}
	return nil
}

// driftedHistory writes DriftedItem's three revisions (the newest FAILed)
// and a v0_ copy still saying PASS.
func driftedHistory(emit func(Item) error, r *rand.Rand) error {
	var newest Item
	for v := 1; v <= 3; v++ {
		newest = audit(r, DriftedPiece, DriftedItem, v)
		if v == 3 {
			newest["Status"] = str("FAIL")
			newest["Findings"] = list(str("hydraulic leak"), str("needs re-inspection"))
		}
		if err := emit(withKey(newest, DriftedPiece, plain(v)+DriftedItem)); err != nil {
			return err
		}
	}
	v0 := withKey(newest, DriftedPiece, plain(0)+DriftedItem)
	v0["Status"] = str("PASS")
	v0["Findings"] = list(str("none"))
	return emit(v0)
}
