package demo

import (
	"fmt"
	"math/rand/v2"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Documents follow the blog's tracking pattern: metadata, permissions, and
// v_0 (a copy of the newest) beside v_1…v_N.
const DocumentCount = 300

func documents(emit func(Item) error) error {
	r := rand.New(rand.NewPCG(23, 6))
	for d := 1; d <= DocumentCount; d++ {
		id := fmt.Sprintf("doc-%04d", d)
		if err := emit(Item{"DocumentID": str(id), "DocumentInfo": str("metadata"), "Title": str(fmt.Sprintf("Design doc %d", d)),
			"Owner": str(auditors[r.IntN(len(auditors))]), "Bucket": str("s3://docs/" + id)}); err != nil {
			return err
		}
		if err := emit(Item{"DocumentID": str(id), "DocumentInfo": str("permissions"),
			"Readers": strSet("team-a", "team-b"), "Writers": strSet(auditors[r.IntN(len(auditors))])}); err != nil {
			return err
		}
		n := 1 + r.IntN(5)
		var newest Item
		for ver := 1; ver <= n; ver++ {
			newest = Item{"DocumentID": str(id), "DocumentInfo": str(fmt.Sprintf("v_%d", ver)),
				"Editor": str(auditors[r.IntN(len(auditors))]), "Words": num(int64(300 + ver*120 + r.IntN(100))),
				"Summary": str(fmt.Sprintf("revision %d of %s", ver, id))}
			if err := emit(newest); err != nil {
				return err
			}
		}
		cur := Item{}
		for k, x := range newest {
			cur[k] = x
		}
		cur["DocumentInfo"] = str("v_0")
		if err := emit(cur); err != nil {
			return err
		}
	}
	return nil
}

func blobs(emit func(Item) error) error {
	for i := 0; i < 48; i++ {
		k := []byte{byte(i * 5), 0xfe, byte(i)}
		if err := emit(Item{"Bucket": str("images"), "Key": &types.AttributeValueMemberB{Value: k}, "Size": num(int64(1024 * (i + 1)))}); err != nil {
			return err
		}
	}
	return nil
}
