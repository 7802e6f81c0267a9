#!/bin/bash
# Self-test: a guest test that hangs after one result; the runner's
# per-test timeout (VIGIL_TEST_TIMEOUT) must kill it and fail it.
. "$(dirname "$0")/../../vm/lib.sh"
echo "1..2"
t_is "before the hang" 1 1
sleep 100000
t_is "never reached" 1 1
