# vigil: one entry point. See README.md and docs/development.md.
BUILD ?= build

.PHONY: all deps kernel check demo clean help

all: kernel

help:
	@echo "make deps     install the Debian packages vigil needs (apt-get)"
	@echo "make kernel   build the vigil test kernel into $(BUILD)/bzImage"
	@echo "make check    run every test suite; ends with 'N passed, N failed'"
	@echo "make demo     boot the vigil kernel and show it at work"

deps:
	@scripts/install-deps

kernel: deps
	@kernel/build.sh $(abspath $(BUILD))

check: deps kernel
	@tests/check

demo: deps kernel
	@scripts/demo

clean:
	rm -rf $(BUILD)
