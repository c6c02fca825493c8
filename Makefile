# Front door: every target installs what is missing first, so a fresh Debian 12 machine
# needs nothing but `make demo` and `make test`.
BUILD      ?= build
TEST_BUILD ?= build-asan
CMAKE_GEN  ?= -G Ninja
# ccache, where the machine has it, makes a rebuild of unchanged files free; nothing needs it.
LAUNCHER   := $(if $(shell command -v ccache 2>/dev/null),-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
PERFGATE    = $(BUILD)/perfgate
# make fuzz (docs/fuzzing.md): seconds per target, targets run at once, which targets.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 600
FUZZ_JOBS    ?= 1
FUZZ_TARGETS ?=

.PHONY: deps build test demo screenshot bench fuzz fuzz-build browser-test ci-test format clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DPERFGATE_BUILD_TESTS=OFF $(LAUNCHER) >/dev/null
	@cmake --build $(BUILD)

# Tests run in a separate build with AddressSanitizer and UndefinedBehaviorSanitizer, on
# every core; the fuzz targets' smoke runs are ctest tests of that build (fuzz/). Prints
# each phase's duration and the slowest tests (scripts/run-tests.sh).
test: deps
	@bash scripts/run-tests.sh $(TEST_BUILD) $(CMAKE_GEN) $(LAUNCHER)

# The parsers again, built with clang for libFuzzer (fuzz/): make fuzz runs each target
# for FUZZ_SECONDS.
fuzz-build:
	@bash scripts/install-deps.sh --fuzz
	@cmake -S . -B $(FUZZ_BUILD) $(CMAKE_GEN) -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_BUILD_TYPE=Debug -DPERFGATE_FUZZ=ON -DPERFGATE_BUILD_TESTS=OFF \
	  -DPERFGATE_BUILD_BENCH=OFF $(LAUNCHER) >/dev/null
	@cmake --build $(FUZZ_BUILD) --target fuzzers

fuzz: fuzz-build
	@bash fuzz/run_all.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_JOBS) $(FUZZ_TARGETS)

# The dashboard viewer (web/viewer/) in headless Chromium: tests/browser/README.md.
browser-test:
	@bash scripts/install-deps.sh --browser
	@node tests/browser/run.mjs

# The GitHub Action, the example workflows and GitLab templates (docs/ci.md): the pinned
# validators, then the action's script in every mode against the release build.
ci-test: build
	@bash tests/ci/run.sh $(BUILD)

demo: build
	@bash scripts/demo.sh $(BUILD)

# The README's picture of the dashboard's landing view, from the site make demo writes.
screenshot: demo
	@bash scripts/install-deps.sh --browser
	@node tests/browser/readme-shot.mjs site docs/images/landing.png

bench: build
	@bash bench/run.sh $(BUILD)

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')

clean:
	@rm -rf $(BUILD) $(TEST_BUILD) $(FUZZ_BUILD) examples/bin
