# Makefile of the tamerlane project. `make run` runs the embedded default
# pipeline config; `make test` is what CI runs.

GO      ?= go
BIN     := bin/tamerlane
RUNDIR  ?= runs/default
FUZZTIME ?= 30s

.PHONY: build run test bench fuzz lint clean

build:
	$(GO) build -o $(BIN) ./cmd/tamerlane

run: build
	$(BIN) run -o $(RUNDIR)

test:
	$(GO) vet ./...
	$(GO) test -race -short ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./tune/...
	$(BIN) bench

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseFEN$$' -fuzztime $(FUZZTIME) ./engine
	$(GO) test -run '^$$' -fuzz '^FuzzParseMove$$' -fuzztime $(FUZZTIME) ./engine

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
