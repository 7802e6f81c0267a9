# vigil: one entry point. See README.md and docs/development.md.
BUILD ?= build

.PHONY: all deps kernel kernel-debug analyzer check check-debug demo bench fuzz clean help

all: kernel analyzer

help:
	@echo "make deps     install the Debian packages vigil needs (apt-get)"
	@echo "make kernel   build the vigil test kernel into $(BUILD)/bzImage"
	@echo "make analyzer build the vigil command (analyzer/vigil)"
	@echo "make check    run every test suite; ends with 'N passed, N failed'"
	@echo "make demo     boot the vigil kernel and show it at work"
	@echo "make check-debug  the VM tests and a long stress on a KASAN/lockdep/kmemleak kernel"
	@echo "make bench    benchmarks: vigil against no vigil and AppArmor; the analyzer against ausearch"
	@echo "make fuzz     fuzz the policy parser and the ingest path, each FUZZ_SECONDS (default 60)"

deps:
	@scripts/install-deps

kernel: deps
	@kernel/build.sh $(abspath $(BUILD))

analyzer: deps
	@$(MAKE) -s -C analyzer all asan

check: deps kernel analyzer
	@tests/check

kernel-debug: deps
	@kernel/build.sh --debug $(abspath $(BUILD))

check-debug: deps kernel-debug analyzer
	@VIGIL_KERNEL=$(abspath $(BUILD))/bzImage-debug VIGIL_APPEND="kmemleak=on" \
		VIGIL_RESULTS=$(abspath $(BUILD))/test-results-debug \
		VIGIL_STRESS_SECONDS=120 VIGIL_MILLION=100000 VIGIL_SUITES="vm kunit" tests/check

demo: deps kernel analyzer
	@scripts/demo

FUZZ_SECONDS ?= 60
fuzz: deps
	@tests/fuzz/run fuzz $(FUZZ_SECONDS)

bench: deps kernel analyzer
	@scripts/install-deps --bench
	@tests/bench/kernel
	@if [ -x tests/bench/analyzer ]; then tests/bench/analyzer; fi

clean:
	rm -rf $(BUILD)
	$(MAKE) -C analyzer clean
