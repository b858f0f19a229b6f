# The README's two commands:
#   make demo   install what is missing, build, run the built-in demo
#   make test   the same plus test dependencies; the whole suite, once
#               normally and once under ASan+UBSan
#   make fuzz   every libFuzzer target for FUZZ_TIME s (tests/fuzz/README.md)
#   make bench  benchmarks against peer MCP clients (bench/README.md);
#               never part of make test
BUILD      ?= build
ASAN_BUILD ?= build-asan
BENCH_BUILD ?= build-bench
JOBS       ?= $(shell nproc)
MCPHOST     = $(BUILD)/bin/mcphost
DEMO        = $(MCPHOST) --config examples/demo.mcp.json

.PHONY: all build demo test deps test-deps interop-deps bench bench-deps clean \
	fuzz fuzz-deps

all: build

deps:
	@scripts/deps.sh build

test-deps:
	@scripts/deps.sh test

# npm packages the tests talk to, exactly as the lock file pins them.
interop-deps: test-deps
	@if [ ! -d tests/interop/node_modules ] || \
	    [ tests/interop/package-lock.json -nt tests/interop/node_modules ]; then \
	  cd tests/interop && npm ci --no-audit --no-fund && touch node_modules; \
	fi

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	$(DEMO) servers
	$(DEMO) tools
	$(DEMO) call mcp__demo__echo message="hello from mcphost"
	$(DEMO) call mcp__demo__add a=2 b=3

test: interop-deps
	scripts/test.sh $(BUILD) $(ASAN_BUILD) $(JOBS)

# Fuzzing: clang and libFuzzer, a build of its own (build-fuzz).
fuzz-deps:
	@scripts/deps.sh fuzz

fuzz: fuzz-deps
	tests/fuzz/run.sh

# Benchmarks: a Release build of its own with the bench programs, the peer
# clients pinned by bench/package-lock.json, hyperfine and gnuplot; then
# every workload (about 10 minutes), results in bench/results/. The
# WebSocket workload's server and peer use the ws package of tests/interop.
bench-deps: deps interop-deps
	@bench/deps.sh
	@if [ ! -d bench/node_modules ] || \
	    [ bench/package-lock.json -nt bench/node_modules ]; then \
	  cd bench && npm ci --no-audit --no-fund && touch node_modules; \
	fi

bench: bench-deps
	cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release \
	  -DMCPHOST_BENCH=ON -DMCPHOST_TESTS=OFF
	cmake --build $(BENCH_BUILD) -j$(JOBS)
	BENCH_BUILD=$(BENCH_BUILD) bench/run.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
