package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureMatchesImports: the code map in ARCHITECTURE.md lists
// every package with exactly the packages of ours it imports, as go list
// sees them, so the map cannot drift from the code.
func TestArchitectureMatchesImports(t *testing.T) {
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([^`]+)`[^|]*\\|[^|]*\\| ([^|]*)\\|$")
	documented := map[string][]string{}
	for _, line := range strings.Split(string(doc), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		documented[m[1]] = splitList(m[2])
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/dynascope/dynascope"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], mod), "/")
		if pkg == "" {
			pkg = "."
		}
		var ours []string
		for _, imp := range fields[1:] {
			if rest, ok := strings.CutPrefix(imp, mod+"/"); ok {
				ours = append(ours, rest)
			}
		}
		slices.Sort(ours)
		want, ok := documented[pkg]
		if !ok {
			t.Errorf("package %s is missing from ARCHITECTURE.md's code map", pkg)
			continue
		}
		if !slices.Equal(ours, want) {
			t.Errorf("ARCHITECTURE.md says %s imports %v; it imports %v", pkg, want, ours)
		}
		delete(documented, pkg)
	}
	for pkg := range documented {
		t.Errorf("ARCHITECTURE.md maps %s, which is not a package", pkg)
	}
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// TestPagesKnowOnlyThatMaskingIsOn: values become stand-ins in one layer,
// the masked client in internal/dynamo. The explorer's pages and what
// they share read through the client they hold and ask it (dynamo.Masks,
// TypedFilter, TypedKey, MaskedComparison); none of them names the
// masked client, so none can mask, or read past the mask, on its own.
func TestPagesKnowOnlyThatMaskingIsOn(t *testing.T) {
	banned := map[string]bool{"Masked": true, "NewMasked": true, "MaskedStreams": true}
	for _, dir := range []string{"internal/ui/pages", "internal/ui/common", "internal/ui/list", "internal/ui/components"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "dynamo" && banned[sel.Sel.Name] {
						t.Errorf("%s names dynamo.%s: ask the client it holds (dynamo.Masks, TypedFilter, TypedKey, MaskedComparison) instead", path, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}
