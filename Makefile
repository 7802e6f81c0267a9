# vigil: one entry point. See README.md and docs/development.md.
BUILD ?= build
# The kernel vigil is built into and tested on: Debian's linux-source-6.1
# (default) or linux-source-6.12. 6.1 builds in $(BUILD)/, the others in
# $(BUILD)/$(KERNEL)/; the test VMs boot that image (VIGIL_KERNEL).
KERNEL ?= 6.1
ifeq ($(KERNEL),6.1)
KBUILD := $(abspath $(BUILD))
else
KBUILD := $(abspath $(BUILD))/$(KERNEL)
endif
export VIGIL_KERNEL ?= $(KBUILD)/bzImage

.PHONY: all deps kernel kernel-debug analyzer check check-debug demo bench fuzz clean help \
	install uninstall deb deb-analyzer deb-kernel check-deb

all: kernel analyzer

help:
	@echo "make deps     install the Debian packages vigil needs (apt-get)"
	@echo "make kernel   build the vigil test kernel into $(BUILD)/bzImage"
	@echo "              (KERNEL=6.12: Linux 6.12 into $(BUILD)/6.12/bzImage; also for"
	@echo "              check, check-debug, demo, bench)"
	@echo "make analyzer build the vigil command (analyzer/vigil)"
	@echo "make check    run every test suite; ends with 'N passed, N failed'"
	@echo "make demo     boot the vigil kernel and show it at work"
	@echo "make check-debug  the VM tests and a long stress on a KASAN/lockdep/kmemleak kernel"
	@echo "make bench    benchmarks: vigil against no vigil and AppArmor; the analyzer against ausearch"
	@echo "make fuzz     fuzz the policy parser and the ingest path, each FUZZ_SECONDS (default 60)"
	@echo "make install  install the vigil command, its man page, report scripts, auditd"
	@echo "              plugin config (disabled) and bash completion (PREFIX=$(PREFIX), DESTDIR)"
	@echo "make uninstall  remove what make install installed (same PREFIX, DESTDIR)"
	@echo "make deb     Debian packages into $(BUILD)/deb: the analyzer (dpkg-buildpackage,"
	@echo "             lintian) and the vigil test kernel (bindeb-pkg)"
	@echo "make check-deb  make deb, then boot the packaged kernel with the packaged analyzer"

deps:
	@scripts/install-deps

kernel: deps
	@kernel/build.sh --kernel $(KERNEL) $(KBUILD)

analyzer: deps
	@$(MAKE) -s -C analyzer all asan

check: deps kernel analyzer
	@VIGIL_RESULTS=$(KBUILD)/test-results tests/check

kernel-debug: deps
	@kernel/build.sh --kernel $(KERNEL) --debug $(KBUILD)

check-debug: deps kernel-debug analyzer
	@VIGIL_KERNEL=$(KBUILD)/bzImage-debug VIGIL_APPEND="kmemleak=on" \
		VIGIL_RESULTS=$(KBUILD)/test-results-debug \
		VIGIL_STRESS_SECONDS=120 VIGIL_MILLION=100000 VIGIL_SUITES="vm kunit" \
		VIGIL_TEST_TIMEOUT=3000 VIGIL_VM_TIMEOUT=14400 tests/check

demo: deps kernel analyzer
	@VIGIL_DEMO_OUT=$(KBUILD)/demo scripts/demo

FUZZ_SECONDS ?= 60
fuzz: deps
	@tests/fuzz/run fuzz $(FUZZ_SECONDS)

bench: deps kernel analyzer
	@scripts/install-deps --bench
	@VIGIL_BENCH_OUT=$(KBUILD)/bench tests/bench/kernel
	@VIGIL_BENCH_OUT=$(KBUILD)/bench tests/bench/steady-ab
	@VIGIL_BENCH_OUT=$(KBUILD)/bench tests/bench/policy-index
	@VIGIL_BENCH_OUT=$(KBUILD)/bench tests/bench/vary-cost
	@if [ -x tests/bench/analyzer ]; then tests/bench/analyzer; fi

# make install / uninstall: the analyzer as a Debian program lays it out.
# The binary finds the report scripts beside it (BINDIR/../share/vigil/
# reports), so a DESTDIR tree works where it is.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/sbin
DATADIR ?= $(PREFIX)/share/vigil
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL ?= install
REPORT_SCRIPTS := $(notdir $(wildcard reports/*.gp))
INSTALLED := $(BINDIR)/vigil $(MANDIR)/man8/vigil.8 \
	$(SYSCONFDIR)/audit/plugins.d/vigil.conf $(BASHCOMPDIR)/vigil \
	$(addprefix $(DATADIR)/reports/,$(REPORT_SCRIPTS))

install:
	$(MAKE) -s -C analyzer all PREFIX=$(PREFIX) DATADIR=$(DATADIR)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(DATADIR)/reports $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(SYSCONFDIR)/audit/plugins.d
	$(INSTALL) -m 0755 analyzer/vigil $(DESTDIR)$(BINDIR)/vigil
	$(INSTALL) -m 0644 docs/vigil.8 $(DESTDIR)$(MANDIR)/man8/vigil.8
	$(INSTALL) -m 0644 $(addprefix reports/,$(REPORT_SCRIPTS)) \
		$(DESTDIR)$(DATADIR)/reports/
	$(INSTALL) -m 0644 analyzer/vigil.bash-completion \
		$(DESTDIR)$(BASHCOMPDIR)/vigil
	sed 's|^path = .*|path = $(BINDIR)/vigil|' analyzer/vigil-plugin.conf \
		> $(DESTDIR)$(SYSCONFDIR)/audit/plugins.d/vigil.conf
	chmod 0640 $(DESTDIR)$(SYSCONFDIR)/audit/plugins.d/vigil.conf

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DATADIR)/reports $(DESTDIR)$(DATADIR) 2>/dev/null

deb: deb-analyzer deb-kernel

deb-analyzer: deps
	@scripts/build-deb $(abspath $(BUILD))/deb

deb-kernel: deps
	@kernel/build.sh --kernel $(KERNEL) --deb $(KBUILD)

# Boot the packaged kernel image with the packaged analyzer: the loop.
check-deb: deb
	@tests/deb/run $(abspath $(BUILD))/deb

clean:
	rm -rf $(BUILD)
	$(MAKE) -C analyzer clean
