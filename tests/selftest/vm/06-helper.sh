#!/bin/bash
# Self-test: runs the helper that tests/selftest/broken-helper.c was to
# build. It does not compile; a stale binary left from an earlier build
# must not be run in its place.
. "$(dirname "$0")/../../vm/lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
t_ok "the helper is a fresh build" "$top/build/vigil-selftest-helper"
t_done
