# dynascope — `make demo` to try it, `make test` to check it.
GO ?= go
PKG := ./...
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: demo build test deps moto conformance bench bench-items bench-children bench-latency bench-memory bench-range bench-filter bench-scan bench-follow bench-changes-follow bench-data bench-data-first fuzz golden screenshots lint

demo: ## run the explorer on the built-in demo data (no AWS, no network)
	$(GO) run . --demo

# RELEASE_FLAGS are .goreleaser.yaml's: a static binary (no cgo: nothing
# here needs it, and a dynamically linked one spends its start loading
# libc), paths trimmed, symbols stripped. The start-up bench builds so too.
RELEASE_FLAGS := -trimpath -ldflags "-s -w -X main.version=$(VERSION)"

build: ## bin/dynascope as the release builds it (static, stripped), its version stamped in
	CGO_ENABLED=0 $(GO) build $(RELEASE_FLAGS) -o bin/dynascope .

deps: node_modules/.package-lock.json ## Go modules and dynalite (pinned in package-lock.json)
	$(GO) mod download

# npm ci wipes node_modules first, so it runs only on a fresh clone or when
# the lockfile changes, never under a test run already using dynalite.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# moto's standalone server answers the DynamoDB Streams calls dynalite
# lacks (the stream tests run on it). It comes from PyPI, which CI may not
# reach: it is checked here, never installed.
moto: ## check that moto's server (the stream tests' DynamoDB Streams) is installed; never installs it
	@command -v moto_server >/dev/null 2>&1 || python3 -c 'import moto.server, flask' >/dev/null 2>&1 || { \
	  if [ "$$CI" = true ]; then echo "moto's server is missing, and the stream tests need it under CI=true: pip install 'moto[server]'" >&2; exit 1; fi; \
	  echo "note: moto's server is missing, so the stream tests will skip: pip install 'moto[server]'" >&2; }

# TEST_TIMEOUT is each test binary's limit, said rather than left to go
# test's default of 10 minutes, which the explorer's suite neared on a
# loaded 2-core machine.
TEST_TIMEOUT ?= 15m

test: deps moto ## every test, including the integration tests against dynalite, and the keypress benchmark once so it cannot rot
	$(GO) vet $(PKG)
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) $(PKG)
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^$$' -bench BenchmarkKeypressWith100kRows -benchtime=1x ./internal/ui/

conformance: deps ## the random differential suite, long: N cases (20000), a fresh seed unless SEED=…
	$(GO) test -count=1 -timeout 0 -run 'TestDifferential' ./internal/dynamo/conformance -v -args -cases=$(or $(N),20000) -seed=$(or $(SEED),0) -fresh

bench: deps ## Go benchmarks (figures, never pass/fail)
	$(GO) test -timeout $(TEST_TIMEOUT) -run '^$$' -bench . -benchmem $(PKG)

bench-items: deps ## stream a 100,000-item partition from dynalite: peak RSS, wall time, requests, RCU, pages
	bash scripts/bench-items.sh

bench-range: deps ## time ranges on 200,000 timestamped items: time to first row vs aws dynamodb query, peak RSS streaming
	bash scripts/bench-range.sh

bench-filter: deps ## a filter matching 0.1% of 100,000 items: scanned vs matched, RCU, first screen, budget, vs aws dynamodb query
	bash scripts/bench-filter.sh

bench-scan: deps ## a table-wide filtered scan of 51,457 items: unbudgeted, budgeted and resumed, partiql, vs aws dynamodb scan
	bash scripts/bench-scan.sh $(BUDGET)

bench-follow: deps ## range --follow's requests and RCU per minute, idle and busy (SECS=60 each)
	bash scripts/bench-follow.sh

bench-changes-follow: deps moto ## F in the Changes tab: from a write to its row on screen, min/median/max over 10 writes, on the embedded backend and on moto
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^$$' -bench BenchmarkChangesFollowLatency -benchtime=1x ./internal/ui/

bench-data: ## load a DynamoDB export of 100,000 and 1,000,000 ~300 B items with --data: wall time, peak RSS vs the data's size
	bash scripts/bench-data.sh

bench-data-first: ## the explorer on --data while 1,000,000 items load: first screen of a small first table, of the large one, load done, beside the headless whole load (BASE=binary for a baseline)
	bash scripts/bench-data-first.sh $(or $(ITEMS),1000000) $(or $(RUNS),3)

bench-children: deps ## drill-down vs full read on 100,000 items under 20 children: requests, RCU, wall time
	bash scripts/bench-children.sh

bench-latency: deps ## children, counts, a first screen, 200-key bursts beside the whole-page floor, G (N=1000000: on a partition of N items too), a merged range's G, table and index partitions through a proxy adding 0, 20 and 50 ms a request: requests, RCU, wall time, round trips (CASES=levels, partitions or bursts: those alone; the bursts j, pgdn, ctrl+f, end and G-then-k run RUNS times each, 5 by default, in turn with the floor, min and median printed; BURSTS=j,pgdn: those alone; TRACE=1: where each burst's time goes, the median of each step from a Query sent to the next; TYPED=1: the keys reach the model one at a time, the answers taken between them, as in the program)
	$(GO) run ./scripts/benchlatency $(if $(N),-g-items $(N)) $(if $(DELAYS),-delays $(DELAYS)) $(if $(CASES),-cases $(CASES))$(if $(RUNS), -runs $(RUNS))$(if $(BURSTS), -bursts $(BURSTS))$(if $(TRACE), -trace)$(if $(TYPED), -typed)

bench-memory: ## scroll 1,000,000 items of ~350 B in the explorer (synthetic read-only client): peak RSS, live heap, requests, RCU, re-reads; the window of rows beside every row held
	$(GO) run ./scripts/benchmemory

golden: ## regenerate the golden files (the explorer's screens, exports): read every diff before committing
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./internal/ui ./internal/export ./internal/cli -update

fuzz: ## run each fuzz target for a while (FUZZTIME=30s)
	bash scripts/fuzz.sh $(or $(FUZZTIME),30s)

screenshots: ## regenerate screenshots/*.png from the real program
	bash scripts/screenshots.sh

# Every Go file of the repository, the renderer's module too (not node_modules).
GOFILES = $(shell find . -name '*.go' -not -path './node_modules/*' -not -path './.cache/*')

lint: ## gofmt, goimports (std | others | this module), go vet, staticcheck and go mod tidy -diff, each pinned in go.mod (go tool)
	@out=$$(gofmt -l $(GOFILES)); test -z "$$out" || { echo "gofmt needed (gofmt -w): $$out"; exit 1; }
	@out=$$($(GO) tool goimports -l -local github.com/dynascope/dynascope $(GOFILES)); test -z "$$out" || { echo "imports mis-grouped (go tool goimports -w -local github.com/dynascope/dynascope FILE): $$out"; exit 1; }
	$(GO) vet $(PKG)
	$(GO) tool staticcheck $(PKG)
	$(GO) mod tidy -diff
	cd screenshots/render && $(GO) vet . && $(GO) mod tidy -diff
