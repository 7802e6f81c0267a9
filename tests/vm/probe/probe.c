// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil-probe: performs one family of accesses for the VM tests, so each
 * hook family is exercised by a known program doing a known thing.
 *
 * usage: vigil-probe sockets PORT UNIX_PATH | signal | ptrace |
 *                    mount DIR | module FILE | lock FILE | ioctl FILE |
 *                    fdpass FILE DATA | opens DIR N | connects N [FIRST] |
 *                    execs DIR N ARG | mkdirs DIR N [FIRST] |
 *                    uids DIR FIRST N |
 *                    mprotect FILE | sendto PORT | movemount DIR TARGET |
 *                    traceme | anonexec | memfdexec NAME |
 *                    shmexec [private] | shmat ID exec|mprotect | mapfd FD
 *
 * traceme: a child named "tracee" asks to be traced (PTRACE_TRACEME), the
 * probe being its tracer; prints "TRACER_PID TRACEE_PID".
 * anonexec: an executable anonymous mapping, by mmap and by mprotect.
 * memfdexec: executable mappings of a memfd named NAME, by mmap, and of
 * another named NAME.2, by mprotect (the fileless way of running code).
 * mapfd: an executable mapping of descriptor FD, which it inherited (a
 * memfd another program made: code one program writes, another runs).
 * shmexec: an executable SysV shared memory mapping (shmat SHM_EXEC) of
 * a segment it creates, with a key of its own or with "private"
 * IPC_PRIVATE's; prints its key as the kernel names it ("SYSV%08x").
 * shmat: an executable mapping of segment ID, which another program
 * created: shmat with SHM_EXEC ("exec"), or without and then mprotect to
 * PROT_EXEC ("mprotect").
 *
 * opens: create N files in DIR, then open each once for reading: N
 * distinct accesses, each a first sighting for vigil.
 * connects: connect one UDP socket to N distinct loopback addresses and
 * ports, numbers FIRST (default 0) to FIRST+N-1: N distinct accesses with
 * no file behind them (a million cost no memory but vigil's table).
 * fdpass: a child without CAP_MAC_ADMIN opens FILE for writing and passes
 * the descriptor (SCM_RIGHTS) to this process, which has it and writes
 * DATA through it. Prints the errno name of the write ("OK" on success).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

extern char **environ;
#include <linux/capability.h>

static int fail(const char *what)
{
	fprintf(stderr, "vigil-probe: %s: %s\n", what, strerror(errno));
	return 1;
}

static int tcp_roundtrip(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int l, c, s, one = 1;

	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0)
		return fail("socket inet");
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)))
		return fail("bind inet");
	if (listen(l, 4))
		return fail("listen inet");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
		return fail("connect inet");
	s = accept(l, NULL, NULL);
	if (s < 0)
		return fail("accept inet");
	close(s);
	close(c);
	close(l);
	return 0;
}

static int unix_roundtrip(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int l, c, s;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	unlink(path);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	if (l < 0)
		return fail("socket unix");
	if (bind(l, (struct sockaddr *)&a, sizeof(a)))
		return fail("bind unix");
	if (listen(l, 4))
		return fail("listen unix");
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
		return fail("connect unix");
	s = accept(l, NULL, NULL);
	if (s < 0)
		return fail("accept unix");
	close(s);
	close(c);
	close(l);
	unlink(path);
	return 0;
}

static pid_t idle_child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static int do_signal(void)
{
	pid_t pid = idle_child();
	int st;

	if (pid < 0)
		return fail("fork");
	if (kill(pid, SIGTERM))
		return fail("kill");
	waitpid(pid, &st, 0);
	return !(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
}

static int do_ptrace(void)
{
	pid_t pid = idle_child();
	int st;

	if (pid < 0)
		return fail("fork");
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		return fail("ptrace attach");
	waitpid(pid, &st, 0);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return 0;
}

static int do_mount(const char *dir)
{
	if (mount("vigil-probe", dir, "tmpfs", 0, "size=1m"))
		return fail("mount");
	if (umount(dir))
		return fail("umount");
	return 0;
}

static int do_module(const char *file)
{
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return fail("open module");
	/* Not a module: the kernel reads it (hook) and then refuses it. */
	if (syscall(SYS_finit_module, fd, "", 0) == 0)
		return fail("finit_module unexpectedly succeeded");
	close(fd);
	return 0;
}

static int do_lock(const char *file)
{
	int fd = open(file, O_RDONLY);

	if (fd < 0 || flock(fd, LOCK_SH))
		return fail("flock");
	close(fd);
	return 0;
}

static int do_ioctl(const char *file)
{
	int fd = open(file, O_RDONLY), n;

	if (fd < 0 || ioctl(fd, FIONREAD, &n))
		return fail("ioctl FIONREAD");
	close(fd);
	return 0;
}

/* Drop one capability from the effective, permitted and inheritable sets. */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[cap / 32].effective &= ~(1U << (cap % 32));
	d[cap / 32].permitted &= ~(1U << (cap % 32));
	d[cap / 32].inheritable &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &h, d);
}

static int do_fdpass(const char *file, const char *data)
{
	char cbuf[CMSG_SPACE(sizeof(int))], byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int sv[2], fd, st;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return fail("socketpair");
	pid = fork();
	if (pid == 0) {
		if (drop_cap(CAP_MAC_ADMIN))
			_exit(fail("capset"));
		fd = open(file, O_WRONLY);
		if (fd < 0)
			_exit(fail("open"));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
		_exit(sendmsg(sv[1], &msg, 0) == 1 ? 0 : fail("sendmsg"));
	}
	if (recvmsg(sv[0], &msg, 0) != 1)
		return fail("recvmsg");
	waitpid(pid, &st, 0);
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return fail("no descriptor received");
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (write(fd, data, strlen(data)) >= 0)
		printf("OK\n");
	else
		printf("%s\n", strerrorname_np(errno));
	close(fd);
	return 0;
}

static int do_opens(const char *dir, long n)
{
	char path[4096];
	long i;
	int fd;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%ld", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return fail("create");
		close(fd);
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%ld", dir, i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return fail("open");
		close(fd);
	}
	return 0;
}

static int do_connects(long n, long first)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	long i, k;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return fail("socket");
	for (i = 0; i < n; i++) {
		k = first + i;
		/* 127.0.0.1 + k / 60000, port 1024 + k % 60000 */
		sin.sin_addr.s_addr = htonl(0x7f000001 + (uint32_t)(k / 60000));
		sin.sin_port = htons(1024 + k % 60000);
		if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return fail("connect");
	}
	close(fd);
	return 0;
}

/*
 * Exec N distinct names of one program: DIR/x0 (the caller's copy) and N-1
 * hard links to it, each run once (spawn with ARG and no output, wait).
 * Prints how many execs succeeded and exited 0. With ARG "-fail" the
 * program is not one (ENOEXEC): this process execs each name itself and
 * counts the failures.
 */
static int do_execs(const char *dir, long n, const char *arg)
{
	char first[4096], path[4096];
	posix_spawn_file_actions_t fa;
	long i, ok = 0;
	int status;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0))
		return fail("posix_spawn_file_actions");
	snprintf(first, sizeof(first), "%s/x0", dir);
	for (i = 0; i < n; i++) {
		char *argv[] = { path, (char *)arg, NULL };

		snprintf(path, sizeof(path), "%s/x%ld", dir, i);
		if (i && link(first, path) && errno != EEXIST)
			return fail("link");
		if (!strcmp(arg, "-fail")) {
			execv(path, argv);
			ok += errno == ENOEXEC;
			continue;
		}
		if (posix_spawn(&pid, path, &fa, NULL, argv, environ))
			continue;
		if (waitpid(pid, &status, 0) < 0)
			return fail("waitpid");
		if (WIFEXITED(status) && !WEXITSTATUS(status))
			ok++;
	}
	posix_spawn_file_actions_destroy(&fa);
	printf("%ld\n", ok);
	return 0;
}

/* Map FILE readable, then make the mapping executable with mprotect(). */
static int do_mprotect(const char *file)
{
	int fd = open(file, O_RDONLY);
	void *p;

	if (fd < 0)
		return fail("open");
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return fail("mmap");
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return fail("mprotect");
	munmap(p, 4096);
	return 0;
}

/* One UDP datagram to 127.0.0.1:PORT from an unconnected socket. */
static int do_sendto(int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		return fail("socket");
	if (sendto(fd, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) != 1)
		return fail("sendto");
	close(fd);
	return 0;
}

/* The new mount API: a clone of DIR's tree attached at TARGET. */
static int do_movemount(const char *dir, const char *target)
{
	int fd = syscall(SYS_open_tree, AT_FDCWD, dir, 1 /* OPEN_TREE_CLONE */);

	if (fd < 0)
		return fail("open_tree");
	if (syscall(SYS_move_mount, fd, "", AT_FDCWD, target,
		    4 /* MOVE_MOUNT_F_EMPTY_PATH */))
		return fail("move_mount");
	close(fd);
	return 0;
}

/*
 * For each uid U in FIRST..FIRST+N-1, a child that drops to uid and gid U
 * (no supplementary groups, as setpriv --reuid U --regid U
 * --clear-groups does, without an exec each) and makes DIR/U: one first
 * sighting per uid. Prints how many succeeded.
 */
static int do_uids(const char *dir, long first, long n)
{
	char path[4096];
	long u, ok = 0;
	int status;
	pid_t pid;

	for (u = first; u < first + n; u++) {
		pid = fork();
		if (pid < 0)
			return fail("fork");
		if (!pid) {
			snprintf(path, sizeof(path), "%s/%ld", dir, u);
			if (setgroups(0, NULL) || setresgid(u, u, u) ||
			    setresuid(u, u, u) || mkdir(path, 0755))
				_exit(1);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) < 0)
			return fail("waitpid");
		ok += WIFEXITED(status) && !WEXITSTATUS(status);
	}
	printf("%ld\n", ok);
	return 0;
}

/* mkdir then rmdir DIR/dI for I in FIRST..FIRST+N-1: 2N first sightings. */
static int do_mkdirs(const char *dir, long n, long first)
{
	char path[4096];
	long i;

	for (i = first; i < first + n; i++) {
		snprintf(path, sizeof(path), "%s/d%ld", dir, i);
		if (mkdir(path, 0755) || rmdir(path))
			return fail("mkdir/rmdir");
	}
	return 0;
}

static int do_traceme(void)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		prctl(PR_SET_NAME, "tracee");
		_exit(ptrace(PTRACE_TRACEME, 0, NULL, NULL) ? 1 : 0);
	}
	waitpid(pid, &st, 0);
	printf("%d %d\n", (int)getpid(), (int)pid);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : fail("traceme");
}

/*
 * p mapped executable, q readable: make q executable (mprotect), then
 * unmap both. The two ways a mapping becomes executable.
 */
static int exec_pair(void *p, void *q)
{
	if (p == MAP_FAILED || q == MAP_FAILED)
		return fail("mmap");
	if (mprotect(q, 4096, PROT_READ | PROT_EXEC))
		return fail("mprotect");
	munmap(p, 4096);
	munmap(q, 4096);
	return 0;
}

static int do_anonexec(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *q = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return exec_pair(p, q);
}

static int do_memfdexec(const char *name)
{
	char name2[256];
	int fd = memfd_create(name, 0), fd2;
	void *p, *q;

	snprintf(name2, sizeof(name2), "%s.2", name);
	fd2 = memfd_create(name2, 0);
	if (fd < 0 || fd2 < 0)
		return fail("memfd_create");
	if (ftruncate(fd, 4096) || ftruncate(fd2, 4096))
		return fail("ftruncate");
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	q = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2, 0);
	close(fd);
	close(fd2);
	return exec_pair(p, q);
}

static int do_mapfd(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return fail("mmap");
	munmap(p, 4096);
	return 0;
}

static int do_shmexec(int private)
{
	key_t key = private ? IPC_PRIVATE :
			      (key_t)(0x56490000 | (getpid() & 0xffff));
	/* x for its owner: SHM_EXEC asks for it (ipcperms). */
	int id = shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0700);
	void *p;

	if (id < 0)
		return fail("shmget");
	p = shmat(id, NULL, SHM_EXEC | SHM_RDONLY);
	shmctl(id, IPC_RMID, NULL);
	if (p == (void *)-1)
		return fail("shmat");
	shmdt(p);
	printf("SYSV%08x\n", (unsigned int)key);
	return 0;
}

static int do_shmat(int id, const char *how)
{
	int exec = !strcmp(how, "exec");
	void *p = shmat(id, NULL, SHM_RDONLY | (exec ? SHM_EXEC : 0));

	if (p == (void *)-1)
		return fail("shmat");
	if (!exec && mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return fail("mprotect");
	shmdt(p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *verb = argc > 1 ? argv[1] : "";

	if (!strcmp(verb, "sockets") && argc == 4)
		return tcp_roundtrip(atoi(argv[2])) || unix_roundtrip(argv[3]);
	if (!strcmp(verb, "connects") && (argc == 3 || argc == 4))
		return do_connects(atol(argv[2]), argc == 4 ? atol(argv[3]) : 0);
	if (!strcmp(verb, "signal"))
		return do_signal();
	if (!strcmp(verb, "ptrace"))
		return do_ptrace();
	if (!strcmp(verb, "mount") && argc == 3)
		return do_mount(argv[2]);
	if (!strcmp(verb, "module") && argc == 3)
		return do_module(argv[2]);
	if (!strcmp(verb, "lock") && argc == 3)
		return do_lock(argv[2]);
	if (!strcmp(verb, "ioctl") && argc == 3)
		return do_ioctl(argv[2]);
	if (!strcmp(verb, "fdpass") && argc == 4)
		return do_fdpass(argv[2], argv[3]);
	if (!strcmp(verb, "opens") && argc == 4)
		return do_opens(argv[2], atol(argv[3]));
	if (!strcmp(verb, "mprotect") && argc == 3)
		return do_mprotect(argv[2]);
	if (!strcmp(verb, "sendto") && argc == 3)
		return do_sendto(atoi(argv[2]));
	if (!strcmp(verb, "movemount") && argc == 4)
		return do_movemount(argv[2], argv[3]);
	if (!strcmp(verb, "mkdirs") && (argc == 4 || argc == 5))
		return do_mkdirs(argv[2], atol(argv[3]),
				 argc == 5 ? atol(argv[4]) : 0);
	if (!strcmp(verb, "uids") && argc == 5)
		return do_uids(argv[2], atol(argv[3]), atol(argv[4]));
	if (!strcmp(verb, "traceme"))
		return do_traceme();
	if (!strcmp(verb, "anonexec"))
		return do_anonexec();
	if (!strcmp(verb, "memfdexec") && argc == 3)
		return do_memfdexec(argv[2]);
	if (!strcmp(verb, "shmexec") && argc <= 3)
		return do_shmexec(argc == 3 && !strcmp(argv[2], "private"));
	if (!strcmp(verb, "shmat") && argc == 4 &&
	    (!strcmp(argv[3], "exec") || !strcmp(argv[3], "mprotect")))
		return do_shmat(atoi(argv[2]), argv[3]);
	if (!strcmp(verb, "mapfd") && argc == 3)
		return do_mapfd(atoi(argv[2]));
	if (!strcmp(verb, "execs") && argc == 5)
		return do_execs(argv[2], atol(argv[3]), argv[4]);
	fprintf(stderr, "usage: vigil-probe sockets PORT UNIX_PATH | signal | ptrace | mount DIR | module FILE | lock FILE | ioctl FILE | fdpass FILE DATA | opens DIR N | execs DIR N ARG | mkdirs DIR N [FIRST] | uids DIR FIRST N | mprotect FILE | sendto PORT | movemount DIR TARGET | traceme | anonexec | memfdexec NAME | shmexec [private] | shmat ID exec|mprotect | mapfd FD\n");
	return 2;
}
