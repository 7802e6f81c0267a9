# Every hook family produces its record, with the right op, access and object.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/20
mkdir -p "$d" /tmp/vigil-t/20-mnt
sh=$(vigil_subject sh /bin/dash)
probe=$(vigil_subject vigil-probe "$VIGIL_PROBE")
vigil_mode learn

# Files, all done by one subject (dash, with external tools as children).
"$sh" -c "
	: > $d/created
	mkdir $d/dir
	rmdir $d/dir
	mkfifo $d/fifo
	ln $d/created $d/hardlink
	ln -s $d/created $d/symlink
	mv $d/created $d/renamed
	truncate -s 0 $d/renamed
	chmod 600 $d/renamed
	chown 1:1 $d/renamed
	rm $d/hardlink
	exec >> $d/appended
"
# an append without O_CREAT (dd conv=nocreat) is a alone
echo x | dd of=$d/appended oflag=append conv=notrunc,nocreat status=none
chk() { # DESC ERE
	t_ok "$1" vigil_wait "$2"
}
chk "create (O_CREAT) is op=create access=c" "op=create access=c .*exe=\"$sh\" path=\"$d/created\""
chk "append open with O_CREAT is access=ac (AppArmor asks for create)" "op=open access=ac .*exe=\"$sh\" path=\"$d/appended\""
chk "append open without O_CREAT is access=a" "op=open access=a .*exe=\"/usr/bin/dd\" path=\"$d/appended\""
chk "create open of a new file is access=wc too" "op=open access=wc .*exe=\"$sh\" path=\"$d/created\""
chk "mkdir" "op=mkdir access=c .*exe=\"/usr/bin/mkdir\" path=\"$d/dir\""
chk "rmdir" "op=rmdir access=d .*exe=\"/usr/bin/rmdir\" path=\"$d/dir\""
chk "mknod of a fifo" "op=mknod access=c .*exe=\"/usr/bin/mkfifo\" path=\"$d/fifo\""
chk "link (the new name)" "op=link access=l .*exe=\"/usr/bin/ln\" path=\"$d/hardlink\""
chk "symlink (the new name)" "op=symlink access=c .*exe=\"/usr/bin/ln\" path=\"$d/symlink\""
chk "rename: the old name is deleted" "op=rename access=d .*exe=\"/usr/bin/mv\" path=\"$d/created\""
chk "rename: the new name is created" "op=rename access=c .*exe=\"/usr/bin/mv\" path=\"$d/renamed\""
chk "truncate" "op=truncate access=t .*exe=\"/usr/bin/truncate\" path=\"$d/renamed\""
chk "chmod" "op=chmod access=s .*exe=\"/usr/bin/chmod\" path=\"$d/renamed\""
chk "chown" "op=chown access=s .*exe=\"/usr/bin/chown\" path=\"$d/renamed\""
chk "unlink" "op=unlink access=d .*exe=\"/usr/bin/rm\" path=\"$d/hardlink\""
chk "exec of a child by the subject" "op=exec access=x .*exe=\"$sh\" path=\"/usr/bin/mkfifo\""
chk "capability use (chown needs CAP_CHOWN)" "op=capable access=use .*exe=\"/usr/bin/chown\" path=\? target=\"chown\" .*capability=0"

# Lock, ioctl, sockets, signals, ptrace, mount, module: the probe.
"$probe" lock /etc/hostname
chk "file lock" "op=lock access=k .*exe=\"$probe\" path=\"/etc/hostname\""
"$probe" ioctl /etc/hostname
chk "ioctl" "op=ioctl access=i .*exe=\"$probe\" path=\"/etc/hostname\""

t_ok "the probe's socket round trips succeed" "$probe" sockets 40123 "$d/sock"
chk "inet socket create" "op=socket access=socket .*exe=\"$probe\" .*target=\"inet:stream\""
chk "inet bind with port" "op=bind access=bind .*exe=\"$probe\" .*target=\"inet:stream:40123\""
chk "inet listen with port" "op=listen access=listen .*exe=\"$probe\" .*target=\"inet:stream:40123\""
chk "inet connect with port" "op=connect access=connect .*exe=\"$probe\" .*target=\"inet:stream:40123\""
chk "inet accept with port" "op=accept access=accept .*exe=\"$probe\" .*target=\"inet:stream:40123\""
chk "unix socket create" "op=socket access=socket .*exe=\"$probe\" .*target=\"unix:stream\""
chk "unix bind with path" "op=bind access=bind .*exe=\"$probe\" .*target=\"unix:stream:$d/sock\""
chk "unix connect with path" "op=connect access=connect .*exe=\"$probe\" .*target=\"unix:stream:$d/sock\""

t_ok "the probe's signal is delivered" "$probe" signal
chk "signal with its name and target" "op=signal access=term .*exe=\"$probe\" .*target=\"$probe\" .*opid=[0-9]+"
t_ok "the probe's ptrace attach works" "$probe" ptrace
chk "ptrace attach with its target" "op=ptrace access=attach .*exe=\"$probe\" .*target=\"$probe\""
t_ok "the probe mounts and unmounts" "$probe" mount /tmp/vigil-t/20-mnt
chk "mount" "op=mount access=mount .*exe=\"$probe\" path=\"/tmp/vigil-t/20-mnt\""
chk "umount" "op=umount access=umount .*exe=\"$probe\" path=\"/tmp/vigil-t/20-mnt\""
t_ok "the probe's module load is refused by the kernel" "$probe" module /etc/hostname
chk "module load" "op=module access=load .*exe=\"$probe\" path=\"/etc/hostname\""
t_done
