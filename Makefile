# The README's two commands:
#   make demo   install what is missing, build, run the built-in demo
#   make test   the same plus test dependencies; the whole suite, once
#               normally and once under ASan+UBSan
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
MCPHOST     = $(BUILD)/bin/mcphost
DEMO        = $(MCPHOST) --config examples/demo.mcp.json

.PHONY: all build demo test deps test-deps interop-deps clean

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

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
