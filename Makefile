# qspec: the two set-up commands are `make run` and `make test`.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
EXAMPLE ?= examples/qwen3-32b/qwen3-32b.qspec
OUT ?= out

.PHONY: all deps configure build run test fuzz sanitize bench clean

all: build

deps:
	@bash scripts/setup-deps.sh

$(BUILD_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/CMakeCache.txt

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Builds, then compiles the bundled example spec into every target's config.
run: build
	@bash scripts/run-example.sh $(BUILD_DIR) $(EXAMPLE) $(OUT)

# Builds, then runs every test (lit + gtest through ctest) with a pass/fail summary.
test: build
	@bash scripts/run-tests.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(OUT)
