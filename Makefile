# Makefile of the tamerlane project. `make run` runs the embedded default
# pipeline config; `make test` is what CI runs.

GO      ?= go
# STATICCHECK is run by `go run` at a fixed version, fetched through the
# module proxy into the module cache: it needs no install step and adds
# nothing to go.mod or go.sum.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
BIN     := bin/tamerlane
RUNDIR  ?= runs/default
FUZZTIME ?= 30s

.PHONY: build static run test bench fuzz lint clean

build:
	$(GO) build -o $(BIN) ./cmd/tamerlane

# static builds the binary the Dockerfile puts in its image: no cgo, so a
# static executable that needs no libc (distroless/static).
static:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags="-s -w" -o bin/tamerlane-static ./cmd/tamerlane

run: build
	$(BIN) run -o $(RUNDIR)

test:
	$(GO) vet ./...
	$(GO) test -race -short ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./tune/...
	$(BIN) bench

# fuzz runs every fuzz target for FUZZTIME each: the FEN, move and PGN
# parsers, the parsers of every file a user writes (configs, tables, the
# published catalogue), and the UCI and CECP servers. Minimizing a new input of a large seed can take a
# while, hence the short minimize time.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseFEN$$' -fuzztime $(FUZZTIME) ./engine
	$(GO) test -run '^$$' -fuzz '^FuzzParseMove$$' -fuzztime $(FUZZTIME) ./engine
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./engine/eval
	$(GO) test -run '^$$' -fuzz '^FuzzParseConfig$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./selfplay
	$(GO) test -run '^$$' -fuzz '^FuzzScanPGN$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./selfplay
	$(GO) test -run '^$$' -fuzz '^FuzzParseConfig$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./values
	$(GO) test -run '^$$' -fuzz '^FuzzParseConfig$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./tune
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./values/published
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./pipeline
	$(GO) test -run '^$$' -fuzz '^FuzzServer$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./uci
	$(GO) test -run '^$$' -fuzz '^FuzzServer$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./xboard

# lint fails when gofmt or `go mod tidy` would change anything, or vet or
# staticcheck (its default checks) complains. The
# tidy check runs on copies of go.mod and go.sum, so that it never edits
# the tree.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && cp go.mod go.sum "$$tmp/" && \
		$(GO) mod tidy -modfile="$$tmp/go.mod" && \
		if ! cmp -s go.mod "$$tmp/go.mod" || ! cmp -s go.sum "$$tmp/go.sum"; then \
			echo "go mod tidy would change go.mod or go.sum:"; diff -u go.mod "$$tmp/go.mod"; diff -u go.sum "$$tmp/go.sum"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

clean:
	rm -rf bin
