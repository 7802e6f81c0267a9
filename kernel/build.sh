#!/bin/bash
# Build the vigil test kernel: unpack Debian's linux-source-VERSION once, lay
# kernel/security/vigil/ over it, apply kernel/patches/VERSION/, merge
# kernel/configs/*.config onto allnoconfig and build bzImage incrementally.
#
# usage: kernel/build.sh [--kernel VERSION] [--debug|--deb] [BUILD_DIR]
#   --kernel: 6.1 (default) or 6.12: Debian's linux-source-VERSION with
#            the patch series kernel/patches/VERSION/. BUILD_DIR defaults
#            to build/ for 6.1 and build/VERSION/ for the others.
#   --debug: also merge kernel/configs/debug/*.config (KASAN, lockdep...),
#            building in BUILD_DIR/kbuild-debug into BUILD_DIR/bzImage-debug
#   --deb:   then package the same build as Debian packages (bindeb-pkg:
#            linux-image, linux-headers, linux-libc-dev) into BUILD_DIR/deb
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
version=6.1
variant=
deb=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) version=${2:?--kernel needs a version}; shift 2 ;;
	--debug) variant=-debug; shift ;;
	--deb) deb=1; shift ;;
	*) break ;;
	esac
done
if [ "$version" = 6.1 ]; then
	build=${1:-$top/build}
else
	build=${1:-$top/build/$version}
fi
tarball=/usr/src/linux-source-$version.tar.xz
patches=$top/kernel/patches/$version
src=$build/linux-src
out=$build/kbuild$variant
jobs=${JOBS:-$(nproc)}

die() { echo "kernel/build.sh: $*" >&2; exit 1; }

# With ccache (scripts/install-deps), objects are cached by their
# preprocessed content: a new clone's first build (CI's) reuses what any
# earlier build on this machine compiled. CCACHE_BASEDIR turns the paths
# under the build folder into relative ones, so a clone in another folder
# hits too. VIGIL_NO_CCACHE=1 builds without it.
kcc=()
if [ -z "${VIGIL_NO_CCACHE:-}" ] && command -v ccache > /dev/null; then
	kcc=(CC="ccache gcc")
	export CCACHE_BASEDIR=$build CCACHE_NOHASHDIR=1
fi

[ -d "$patches" ] || die "no patch series for Linux $version ($patches); known: $(cd "$top/kernel/patches" && echo *)"
[ -r "$tarball" ] || die "$tarball missing: run 'make deps' (apt-get install linux-source-$version)"
mkdir -p "$build"

# 1. Unpacked and patched source: redone only when the tarball or a patch changes.
want_stamp=$( { stat -c '%s %Y' "$tarball"; cat "$patches"/*.patch; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$src/.vigil-stamp" 2>/dev/null)" != "$want_stamp" ]; then
	echo "  UNPACK  $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$tarball" --strip-components=1
	for p in "$patches"/*.patch; do
		echo "  PATCH   $(basename "$p")"
		patch -d "$src.tmp" -p1 --quiet --forward < "$p" || die "patch $p does not apply"
	done
	echo "$want_stamp" > "$src.tmp/.vigil-stamp"
	mv "$src.tmp" "$src"
fi

# 2. vigil's sources, linked so edits are seen (and rebuilt) by kbuild at once.
ln -sfn "$top/kernel/security/vigil" "$src/security/vigil"

# 3. Config: allnoconfig plus our fragments; regenerated when they change.
mkdir -p "$out"
frag=$build/vigil$variant.config
if [ -n "$variant" ]; then
	cat "$top"/kernel/configs/*.config "$top"/kernel/configs/debug/*.config > "$frag.new"
else
	cat "$top"/kernel/configs/*.config > "$frag.new"
fi
if ! cmp -s "$frag.new" "$frag" || [ ! -f "$out/.config" ]; then
	echo "  CONFIG  allnoconfig + kernel/configs/*.config"
	make -s -C "$src" O="$out" ARCH=x86_64 "${kcc[@]}" KCONFIG_ALLCONFIG="$frag.new" allnoconfig
	# Every option we ask for must have survived (typos, missing deps).
	missing=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF -- "$line" "$out/.config" || {
				echo "kernel/build.sh: requested '$line' but .config has:" \
					"$(grep -E "^(# )?${line%%=*}[= ]" "$out/.config" || echo 'nothing')" >&2
				missing=1
			}
			;;
		esac
	done < "$frag.new"
	[ $missing = 0 ] || { rm -f "$out/.config"; die "config fragment not satisfied"; }
	mv "$frag.new" "$frag"
else
	rm -f "$frag.new"
fi

# TOMOYO's built-in policy: security/tomoyo/Makefile reads policy/*.conf
# from the build folder (install -C: unchanged files keep their time).
mkdir -p "$out/security/tomoyo/policy"
for f in "$top"/kernel/configs/tomoyo/*.conf; do
	install -C -m 0644 "$f" "$out/security/tomoyo/policy/"
done

# 4. Incremental build.
make -s -C "$src" O="$out" ARCH=x86_64 "${kcc[@]}" -j"$jobs" bzImage
install -C -m 0644 "$out/arch/x86/boot/bzImage" "$build/bzImage$variant"
echo "  KERNEL  $build/bzImage$variant"

# 5. Debian packages of that build: bindeb-pkg writes them beside $out.
if [ -n "$deb" ]; then
	rm -f "$build"/linux-*.deb "$build"/linux-*.buildinfo "$build"/linux-*.changes
	make -s -C "$src" O="$out" ARCH=x86_64 "${kcc[@]}" -j"$jobs" \
		KDEB_SOURCENAME=linux-vigil bindeb-pkg > "$build/bindeb-pkg.log" 2>&1 ||
		{ tail -n 30 "$build/bindeb-pkg.log" >&2; die "bindeb-pkg failed (log: $build/bindeb-pkg.log)"; }
	mkdir -p "$build/deb"
	rm -f "$build"/deb/linux-*
	mv "$build"/linux-*.deb "$build"/linux-*.buildinfo "$build"/linux-*.changes "$build/deb/"
	for f in "$build"/deb/linux-image-*.deb; do
		echo "  DEB     $f"
	done
fi
