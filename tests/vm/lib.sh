# Shell test library for tests run inside the guest: TAP output.
# Source it, then call the t_* functions; t_done prints the plan.
# shellcheck shell=bash

_t_n=0
_t_fail=0
_t_file=${T_NAME:-$(basename "${0%.sh}")}

_t_result() { # STATUS DESC
	_t_n=$((_t_n + 1))
	if [ "$1" = ok ]; then
		echo "ok $_t_n - $_t_file: $2"
	else
		_t_fail=$((_t_fail + 1))
		echo "not ok $_t_n - $_t_file: $2"
	fi
}

# t_ok DESC COMMAND...: passes when COMMAND succeeds.
t_ok() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		_t_result ok "$desc"
	else
		_t_result "not ok" "$desc"
		echo "#   command failed ($?): $*"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'
	fi
}

# t_fails DESC COMMAND...: passes when COMMAND fails.
t_fails() {
	local desc=$1
	shift
	if "$@" > /dev/null 2>&1; then
		_t_result "not ok" "$desc"
		echo "#   command succeeded, expected failure: $*"
	else
		_t_result ok "$desc"
	fi
}

# t_is DESC GOT WANT: passes when the two strings are equal.
t_is() {
	if [ "$2" = "$3" ]; then
		_t_result ok "$1"
	else
		_t_result "not ok" "$1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
	fi
}

# t_match DESC STRING REGEX: passes when STRING matches the extended REGEX.
t_match() {
	if printf '%s' "$2" | grep -Eq -- "$3"; then
		_t_result ok "$1"
	else
		_t_result "not ok" "$1"
		echo "#   '$2'"
		echo "#   does not match /$3/"
	fi
}

t_diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

t_done() {
	echo "1..$_t_n"
	[ "$_t_fail" = 0 ]
}
