# The README's two commands:
#   make demo   install what is missing, build, run the built-in demo
#   make test   the same plus test dependencies; the whole suite, once
#               normally and once under ASan+UBSan
#   make fuzz   every libFuzzer target for FUZZ_TIME s (tests/fuzz/README.md)
#   make bench  benchmarks against peer MCP clients (bench/README.md);
#               never part of make test
#   make baseline WHY='...'
#               count the footprint guard's workloads again and rewrite
#               bench/footprint.baseline (bench/README.md); the lines
#               that moved say WHY. Also rewrites bench/footprint.hot,
#               the functions the executable's layout puts first
#   make deb    the Debian packages (debian/), built from a copy of the
#               tree in build-deb/ and checked by lintian: the .deb
#               files are in build-deb/
#   make deb-symbols
#               rewrite debian/libmcphost1.symbols from the library of
#               the build: what the client API exports (a symbol new
#               since the file gets debian/changelog's version)
#   make install PREFIX=DIR [DESTDIR=STAGE]
#               install the build into DIR (default /usr/local; no root
#               needed for a prefix of yours), building it first as
#               `make build` would when there is none: sdk/README.md says
#               what goes where
BUILD      ?= build
ASAN_BUILD ?= build-asan
BENCH_BUILD ?= build-bench
BENCH_TYPE  ?= Release
JOBS       ?= $(shell nproc)
MCPHOST     = $(BUILD)/bin/mcphost
DEMO        = $(MCPHOST) --config examples/demo.mcp.json
PREFIX     ?= /usr/local

.PHONY: all build demo test deps test-deps interop-deps bench bench-deps \
        install clean fuzz fuzz-deps baseline deb deb-deps deb-symbols

all: build

deps:
	@scripts/deps.sh build

test-deps:
	@scripts/deps.sh test

# npm packages the tests talk to, exactly as the lock file pins them.
# A node_modules that is a link (a worktree sharing another's) is left
# alone: npm ci would empty the linked directory through it.
interop-deps: test-deps
	@if [ -L tests/interop/node_modules ]; then \
	  echo "tests/interop/node_modules is a link to another tree's: left as it is"; \
	elif [ ! -d tests/interop/node_modules ] || \
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

# An existing build is installed as it was configured (a Debug or
# sanitizer build stays one). cmake --install reads DESTDIR from the
# environment.
install:
	@[ -f $(BUILD)/CMakeCache.txt ] || $(MAKE) build
	cmake --build $(BUILD) -j$(JOBS)
	DESTDIR='$(DESTDIR)' cmake --install $(BUILD) --prefix '$(PREFIX)'

test: interop-deps
	scripts/test.sh $(BUILD) $(ASAN_BUILD) $(JOBS)

# The footprint guard's baseline, from the plain build (make test's):
# first the functions its workloads run (bench/footprint.hot, which the
# link places first: cli/CMakeLists.txt), the build linked with them,
# then the figures.
baseline: test-deps
	@[ -n "$(WHY)" ] || { echo "make baseline WHY='why the figures moved'"; exit 2; }
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)
	python3 bench/footprint.py hot --build $(BUILD)
	cmake --build $(BUILD) -j$(JOBS)
	python3 bench/footprint.py update --build $(BUILD) --why "$$WHY"

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
	@if [ -L bench/node_modules ]; then \
	  echo "bench/node_modules is a link to another tree's: left as it is"; \
	elif [ ! -d bench/node_modules ] || \
	    [ bench/package-lock.json -nt bench/node_modules ]; then \
	  cd bench && npm ci --no-audit --no-fund && touch node_modules; \
	fi

bench: bench-deps
	cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=$(BENCH_TYPE) \
	  -DMCPHOST_BENCH=ON -DMCPHOST_TESTS=OFF
	cmake --build $(BENCH_BUILD) -j$(JOBS)
	BENCH_BUILD=$(BENCH_BUILD) bench/run.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz $(DEB_BUILD)

# Debian packages: dpkg-buildpackage writes its results beside the source
# directory, so it runs on a copy of the tree in $(DEB_BUILD)/mcphost
# (without build directories, npm packages or .git), and the packages land
# in $(DEB_BUILD). lintian must report no error and no warning that
# debian/*.lintian-overrides does not explain.
DEB_BUILD ?= build-deb
deb-deps:
	@scripts/deps.sh deb

deb: deb-deps
	rm -rf $(DEB_BUILD)
	mkdir -p $(DEB_BUILD)/mcphost
	tar -C . --exclude='./build*' --exclude='./obj-*' --exclude=node_modules \
	  --exclude=./.git -cf - . | tar -C $(DEB_BUILD)/mcphost -xf -
	cd $(DEB_BUILD)/mcphost && dpkg-buildpackage -us -uc -b -j$(JOBS)
	lintian --fail-on error,warning --info $(DEB_BUILD)/*.changes

# The package build refuses a library whose exported symbols differ from
# debian/libmcphost1.symbols (debian/rules); after a change to the client
# API, this writes the file again from the build's library: a symbol
# new since the file gets debian/changelog's version, the others keep
# theirs; one gone that appeared in an earlier version stays, marked
# "#MISSING" for a reviewer (removing it breaks the ABI: a new SONAME).
# (dpkg-gensymbols reads an output file that exists as its template.)
SYMS_TMP = $(BUILD)/libmcphost1.symbols
deb-symbols: build
	rm -f $(SYMS_TMP).*
	v=$$(dpkg-parsechangelog -S Version) && \
	dpkg-gensymbols -plibmcphost1 -e$(BUILD)/lib/libmcphost.so.1 -v$$v \
	  -I/dev/null -q -c0 -O$(SYMS_TMP).exported && \
	dpkg-gensymbols -plibmcphost1 -e$(BUILD)/lib/libmcphost.so.1 -v$$v \
	  -q -c0 -O$(SYMS_TMP).merged
	awk 'NR == FNR { if (/^ /) exported[$$1] = 1; next } \
	     !/^ / || exported[$$1]' $(SYMS_TMP).exported $(SYMS_TMP).merged \
	  >debian/libmcphost1.symbols
