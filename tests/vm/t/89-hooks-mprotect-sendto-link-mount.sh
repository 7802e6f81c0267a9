# Accesses no hook saw before, made by an unprivileged user: mprotect()
# making a file mapping executable, a datagram sent to an address, the
# file a hard link is made to, the new mount API (move_mount), and an
# access through overlayfs (which opens the real file with the mounter's
# credentials): attributed to the task that made it.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89c
mkdir -p $d/u $d/lower $d/upper $d/work $d/ovl
chmod 755 /tmp/vigil-t $d
chown 65534:65534 $d/u
asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
probe=$(vigil_subject vigil-probe "$VIGIL_PROBE")
cat=$(vigil_subject cat)
chmod 755 "$probe" "$cat"
echo data > $d/u/lib
chown 65534:65534 $d/u/lib

vigil_mode learn

t_ok "nobody maps a file and mprotects it PROT_EXEC" asuser "$probe" mprotect $d/u/lib
t_ok "recorded as mmap m of that file" \
	vigil_wait "op=mmap access=m uid=65534 exe=\"$probe\" path=\"$d/u/lib\""

t_ok "nobody sends a datagram to 127.0.0.1:40999 unconnected" asuser "$probe" sendto 40999
t_ok "recorded as a connect to that address" \
	vigil_wait "op=connect access=connect uid=65534 exe=\"$probe\" path=\\? target=\"inet:dgram:40999\""

t_ok "nobody hard-links its file" asuser ln $d/u/lib $d/u/lib2
t_ok "the new name is recorded" vigil_wait "op=link access=l uid=65534 .* path=\"$d/u/lib2\""
t_ok "and, now, the file linked" vigil_wait "op=link access=l uid=65534 .* path=\"$d/u/lib\""

mkdir -m 777 $d/mnt
t_ok "nobody, in its own namespace, attaches a mount with move_mount(2)" \
	asuser unshare -rm "$probe" movemount $d/lower $d/mnt
t_ok "recorded as a mount at the target" \
	vigil_wait "op=mount access=mount uid=65534 exe=\"$probe\" path=\"$d/mnt\""

echo secret > $d/lower/f
chmod 644 $d/lower/f
t_ok "root mounts an overlay" \
	mount -t overlay overlay -o lowerdir=$d/lower,upperdir=$d/upper,workdir=$d/work $d/ovl
t_is "nobody reads through it" "$(asuser "$cat" $d/ovl/f)" secret
vigil_settle
t_ok "the read is nobody's" vigil_wait "op=open access=r uid=65534 exe=\"$cat\" path=\"$d/ovl/f\""
t_is "no record of it names another subject or uid than the reader's" \
	"$(vigil_lines "path=\"$d/ovl/f\"" | grep -a 'comm="cat"' | grep -avc "uid=65534 exe=\"$cat\"")" 0
umount $d/ovl
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
