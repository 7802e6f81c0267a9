#!/bin/bash
# Self-test: a guest test that crashes after its first result (SIGSEGV).
# Only "ok" lines are printed: the runner alone must see the failure.
. "$(dirname "$0")/../../vm/lib.sh"
echo "1..3"
t_is "before the crash" 1 1
kill -SEGV $$
t_is "never reached" 1 1
