# make install / make uninstall and the man page, sourced once by
# tests/unit/run (after the command-line tests) with top, work, t_ok and
# t_fail set. Each test is a function run by t_cli under set -e.
# shellcheck shell=bash

iw=$work/install
mkdir -p "$iw"

# Run a test function in a subshell under set -e (as cli.sh's t_cli).
t_inst() {
	local name=$1 rc
	shift
	( cd "$top" || exit 1; set -e; "$@" ) > "$iw/log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		t_ok "install/$name"
	else
		t_fail "install/$name" "$iw/log"
	fi
}

# A copy of the sources make install needs, built there from scratch (so
# the tree's own binaries are not rebuilt for another PREFIX).
inst_src() {
	rm -rf "$iw/src"
	mkdir -p "$iw/src"
	tar -C "$top" -c --exclude=obj --exclude=obj-asan --exclude=analyzer/vigil \
		--exclude=analyzer/vigil-asan --exclude=schemas.c Makefile \
		analyzer kernel/security/vigil reports docs/vigil.8 schemas \
		2>/dev/null | tar -C "$iw/src" -x
	[ -f "$iw/src/analyzer/cli/main.c" ]
}

# The files make install lays out, relative to DESTDIR, for PREFIX=/usr.
inst_expected() {
	printf '%s\n' etc/audit/plugins.d/vigil.conf \
		usr/sbin/vigil usr/share/bash-completion/completions/vigil \
		usr/share/man/man8/vigil.8 \
		usr/share/vigil/reports/bars.gp \
		usr/share/vigil/reports/discovery.gp \
		usr/share/vigil/reports/timeline.gp
}

# install -> the installed binary reports with its installed scripts;
# uninstall removes every file it installed.
i_install_report_uninstall() {
	local root=$iw/root bin rep
	inst_src
	rm -rf "$root"
	make -s -C "$iw/src" install DESTDIR="$root" PREFIX=/usr > "$iw/make.out"
	(cd "$root" && find . -type f -o -type l | sed 's|^\./||' | sort) > "$iw/files"
	inst_expected | diff - "$iw/files"
	bin=$root/usr/sbin/vigil
	[ -x "$bin" ]
	[ "$(stat -c %a "$root/etc/audit/plugins.d/vigil.conf")" = 640 ]
	grep -q '^active = no$' "$root/etc/audit/plugins.d/vigil.conf"
	grep -q '^path = /usr/sbin/vigil$' "$root/etc/audit/plugins.d/vigil.conf"
	# the installed binary, away from the source tree, finds its scripts
	unset VIGIL_REPORTS_DIR
	rm -rf "$iw/run"
	mkdir -p "$iw/run"
	(cd "$iw/run" && "$bin" --db v.db ingest "$top/tests/fixtures/vigil-learn.log" > /dev/null)
	(cd "$iw/run" && "$bin" --db v.db report -o rep > "$iw/report.out")
	rep=$iw/run/rep
	[ -s "$rep/index.html" ]
	for c in discovery records denials top-subjects top-objects; do
		grep -q 'Produced by GNUPLOT' "$rep/$c.svg"
	done
	# without its scripts: a clear error, and no half-made report folder
	mv "$root/usr/share/vigil/reports" "$iw/moved"
	rc=0
	(cd "$iw/run" && "$bin" --db v.db report -o rep2) 2> "$iw/e" || rc=$?
	[ $rc = 2 ]
	grep -q 'the gnuplot scripts are missing' "$iw/e"
	[ ! -e "$iw/run/rep2" ]
	mv "$iw/moved" "$root/usr/share/vigil/reports"
	# bash completion: verbs from the table, a verb's options
	PATH=$root/usr/sbin:$PATH bash -c '
		. "$1"
		COMP_WORDS=(vigil rep); COMP_CWORD=1; _vigil
		[ "${COMPREPLY[*]}" = report ]
		COMP_WORDS=(vigil report --fo); COMP_CWORD=2; _vigil
		[ "${COMPREPLY[*]}" = --format ]
		COMP_WORDS=(vigil mode o); COMP_CWORD=2; _vigil
		[ "${COMPREPLY[*]}" = "observe off" ]
	' - "$root/usr/share/bash-completion/completions/vigil"
	# the man page renders without a warning
	[ -z "$(groff -t -man -ww -z "$root/usr/share/man/man8/vigil.8" 2>&1)" ]
	make -s -C "$iw/src" uninstall DESTDIR="$root" PREFIX=/usr
	[ -z "$(find "$root" -type f -o -type l)" ]
	[ ! -e "$root/usr/share/vigil" ]
	# the default PREFIX is /usr/local
	make -s -C "$iw/src" install DESTDIR="$root" > /dev/null
	[ -x "$root/usr/local/sbin/vigil" ]
	[ -f "$root/usr/local/share/vigil/reports/timeline.gp" ]
	grep -q '^path = /usr/local/sbin/vigil$' "$root/etc/audit/plugins.d/vigil.conf"
	make -s -C "$iw/src" uninstall DESTDIR="$root"
	[ -z "$(find "$root" -type f -o -type l)" ]
	rm -rf "$iw/src" "$root" "$iw/run"
}

# The man page documents every verb of the command table and every long
# option each verb's help names.
i_man_page_complete() {
	local man=$top/docs/vigil.8 v o n=0
	"$top/analyzer/vigil" --verbs > "$iw/verbs"
	# the page with its escaped hyphens plain: \-\-db is --db
	sed 's/\\-/-/g' "$man" > "$iw/man.plain"
	while read -r v; do
		grep -Eq "^\\\\fB$v\\\\fR" "$man" || { echo "verb $v not in vigil.8"; return 1; }
		"$top/analyzer/vigil" "$v" -h > "$iw/h"
		for o in $(grep -o -- '--[a-z][a-z-]*' "$iw/h" | sort -u); do
			grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" "$iw/man.plain" || { echo "$v $o not in vigil.8"; return 1; }
			n=$((n + 1))
		done
	done < "$iw/verbs"
	[ "$n" -gt 15 ]
	for o in db help version verbs; do
		grep -qE -- "(^|[^a-z-])--$o([^a-z-]|$)" "$iw/man.plain"
	done
	for o in VIGIL_DB VIGIL_SECURITYFS VIGIL_REPORTS_DIR VIGIL_INGEST_BATCH; do
		grep -q "^\.B $o$" "$man"
	done
	# every environment variable the analyzer reads is documented
	for o in $(grep -oh 'getenv("[A-Z_]*")' "$top"/analyzer/*/*.c | sed 's/getenv("\(.*\)")/\1/' | sort -u); do
		grep -q "^\.B $o$" "$man" || { echo "$o not in vigil.8"; return 1; }
	done
	grep -q '^\.SH EXIT STATUS' "$man"
	for o in 0 1 2; do
		grep -A1 '^\.SH EXIT STATUS' "$man" > /dev/null
		sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man" | grep -q "^\.B $o$"
	done
}

t_inst "make install, the installed vigil report works, make uninstall removes it all" i_install_report_uninstall
t_inst "the man page documents every verb, long option and environment variable" i_man_page_complete

# The analyzer's Debian package: built by dpkg-buildpackage from debian/,
# lintian-clean (scripts/build-deb fails otherwise), laid out as make
# install with PREFIX=/usr, the plugin configuration a conffile, and the
# packaged binary reports with the packaged scripts.
i_deb_package() {
	local out=$iw/deb x=$iw/deb-root
	rm -rf "$out" "$x"
	"$top/scripts/build-deb" "$out" > "$iw/deb.out" 2>&1 || { cat "$iw/deb.out"; return 1; }
	ls "$out"/vigil_*.dsc "$out"/vigil_*.tar.xz > /dev/null
	deb=$(ls "$out"/vigil_*_*.deb)
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub("^\\./", "", $6); print $6 }' |
		grep -v '^usr/share/doc/vigil/' | sed 's|vigil.8.gz$|vigil.8|' | sort > "$iw/deb.files"
	# The package alone ships lintian's overrides (make install has no
	# use for them); each needs a reason on the line above it.
	grep -qx usr/share/lintian/overrides/vigil "$iw/deb.files"
	grep -vx usr/share/lintian/overrides/vigil "$iw/deb.files" > "$iw/deb.files2"
	inst_expected | diff - "$iw/deb.files2"
	dpkg-deb -f "$deb" Depends | grep -q libsqlite3
	dpkg-deb -I "$deb" conffiles | grep -qx /etc/audit/plugins.d/vigil.conf
	# 0640 as auditd's own plugin configurations (dh_fixperms made it 0644)
	dpkg-deb -c "$deb" | grep -q '^-rw-r----- root/root .* \./etc/audit/plugins\.d/vigil\.conf$'
	# dh_auto_test ran the smoke test on the built binary
	grep -q '^smoke: ok$' "$out/dpkg-buildpackage.log"
	dpkg-deb -x "$deb" "$x"
	grep -q '^active = no$' "$x/etc/audit/plugins.d/vigil.conf"
	rm -rf "$iw/run"
	mkdir -p "$iw/run"
	(cd "$iw/run" && "$x/usr/sbin/vigil" --db v.db ingest "$top/tests/fixtures/vigil-learn.log" > /dev/null)
	(cd "$iw/run" && "$x/usr/sbin/vigil" --db v.db report -o rep > /dev/null)
	grep -q 'Produced by GNUPLOT' "$iw/run/rep/discovery.svg"
	# the autopkgtest (debian/tests/smoke) on the package's own files
	VIGIL=$x/usr/sbin/vigil VIGIL_REPORTS_DIR=$x/usr/share/vigil/reports \
		debian/tests/smoke
	rm -rf "$out" "$x" "$iw/run"
}

t_inst "the analyzer's Debian package: dpkg-buildpackage, lintian clean, installed layout, report works" i_deb_package
