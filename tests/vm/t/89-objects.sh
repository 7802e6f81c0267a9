# Objects are told apart by file and by name, as an unprivileged user
# tries to merge them: in observe mode a hard link of a file the policy
# denies, made into a folder it allows, and a rename of an allowed file
# into a denied folder, are each judged by the path used; in learn mode
# every name of a file is learned.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89o
mkdir -p $d/allowed $d/secret $d/learn
chmod 755 /tmp/vigil-t $d
chown 65534:65534 $d/allowed $d/secret $d/learn
asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
cat=$(vigil_subject cat)
lcat=$(vigil_subject lcat /usr/bin/cat)
chmod 755 "$cat" "$lcat"

vigil_mode learn
vigil_load "subject $cat observe {
	file r $d/allowed/**
	file rm /usr/lib/**
	file r /etc/ld.so.cache
}"
t_is "the policy is loaded" "$(vigil_stat policy.subjects)" 1

# A hard link of a denied file, made into the allowed folder, read first.
asuser sh -c "echo x > $d/secret/f && ln $d/secret/f $d/allowed/f"
t_is "nobody reads the link in the allowed folder" "$(asuser "$cat" $d/allowed/f)" x
t_is "then the file itself, in the denied folder" "$(asuser "$cat" $d/secret/f)" x
t_ok "that read is a would-be denial" \
	vigil_wait "verdict=would-deny op=open access=r uid=65534 exe=\"$cat\" path=\"$d/secret/f\""
t_ok "a sentinel is recorded after them" vigil_sentinel "$cat"
t_is "the allowed name is not" "$(vigil_count "exe=\"$cat\" path=\"$d/allowed/f\"")" 0

# An allowed file read, renamed into the denied folder, read again.
asuser sh -c "echo y > $d/allowed/g"
t_is "nobody reads an allowed file" "$(asuser "$cat" $d/allowed/g)" y
asuser mv $d/allowed/g $d/secret/g
t_is "then again once renamed into the denied folder" "$(asuser "$cat" $d/secret/g)" y
t_ok "that read is a would-be denial" \
	vigil_wait "verdict=would-deny op=open access=r uid=65534 exe=\"$cat\" path=\"$d/secret/g\""
echo "# nothing" > $VIGIL_FS/policy

# Learn mode: both names of one file.
asuser sh -c "echo z > $d/learn/a && ln $d/learn/a $d/learn/b"
asuser "$lcat" $d/learn/a $d/learn/b > /dev/null
t_ok "the first name is learned" vigil_wait "op=open access=r uid=65534 exe=\"$lcat\" path=\"$d/learn/a\""
t_ok "and the second name too" vigil_wait "op=open access=r uid=65534 exe=\"$lcat\" path=\"$d/learn/b\""
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
