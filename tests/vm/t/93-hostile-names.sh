# Names a local user chooses, end to end on the real kernel (issue 26): a
# program whose path holds terminal escapes, a C1 control, bytes that are
# not UTF-8 and a newline reads a file named with HTML and gnuplot markup;
# the kernel's record (hex, as audit writes untrusted strings) is ingested
# and every output of the analyzer shows the names escaped.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/93
rm -rf $w
mkdir -p $w
export VIGIL_DB=$w/v.db
dir=$(printf '%s/\033]0;PWNED\a\033[2J\302\233x\377\nnl' "$w")
mkdir -p "$dir"
exe=$dir/cat
cp /usr/bin/cat "$exe"
obj=$(printf '%s/</script>_x^2{y}@&\033[31m' "$w")
mkdir -p "$(dirname "$obj")"
echo secret > "$obj"
hex=$(printf '%s' "$exe" | od -An -tx1 | tr -d ' \n')
vigil_mode learn
t_ok "the hostile program runs" "$exe" "$obj"
t_ok "and is recorded, in hex" vigil_wait "exe=$(echo "$hex" | tr a-f A-F) "
t_ok "vigil ingest" "$vigil" ingest $(audit_logs)
t_ok "the name is stored as it is" test "$(sqlite3 $VIGIL_DB "SELECT count(*) FROM records WHERE exe = CAST(x'$hex' AS TEXT)")" -gt 0
"$vigil" report --format text --subject "$exe" > $w/r.txt
t_is "report --format text: no ESC" "$(grep -c $'\033' $w/r.txt)" 0
t_ok "... the name shown escaped" grep -qF 'PWNED\x07\x1b[2J\xc2\x9bx\xff\x0anl/cat' $w/r.txt
"$vigil" report --format json --subject "$exe" > $w/r.json
t_ok "report --format json: strict UTF-8 JSON, the exact bytes in exe_hex" python3 -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
assert bytes.fromhex(d["subjects"][0]["exe_hex"]) == sys.argv[2].encode("utf-8", "surrogateescape")
' $w/r.json "$exe"
t_ok "report (HTML)" "$vigil" report --subject "$exe" -o $w/html
t_is "... no raw </script> from the name" "$(grep -c '</script>_x' $w/html/index.html)" 0
t_ok "... the SVG charts are well-formed XML" sh -c "for f in $w/html/*.svg; do python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \$f || exit 1; done"
"$vigil" generate --subject "$exe" -o $w/cand.policy
t_is "generate: no ESC, UTF-8 throughout, one block" \
	"$(grep -c $'\033' $w/cand.policy) $(iconv -f UTF-8 -t UTF-8 $w/cand.policy > /dev/null 2>&1 && echo utf8) $(grep -c '^subject ' $w/cand.policy)" "0 utf8 1"
t_ok "the candidate loads (the kernel reads the escapes back)" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
s=$(audit_serial)
t_ok "the program runs again under observation" "$exe" "$obj"
echo new > $w/sentinel
t_ok "... and reads a file its candidate lacks" "$exe" $w/sentinel
t_ok "that read is a would-be denial (the sentinel)" \
	vigil_wait "verdict=would-deny .*path=\"$w/sentinel\""
t_is "the only would-be denial: the loaded names are the program's" \
	"$(audit_since "$s" 'verdict=would-deny' | grep -a "exe=$(echo "$hex" | tr a-f A-F) " | grep -vc sentinel)" 0
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none
rc=0
"$vigil" diff $w/cand.policy > $w/diff.out 2>&1 || rc=$?
t_is "diff: no ESC in its output" "$(grep -c $'\033' $w/diff.out)" 0
t_done
