#!/bin/bash
# Self-test: a guest test that passes, as every real one should.
. "$(dirname "$0")/../../vm/lib.sh"
t_ok "the guest has vigil" test -d "$VIGIL_FS"
t_is "arithmetic" "$((6 * 7))" 42
t_done
