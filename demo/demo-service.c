// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil-demo-service: the sample workload vigil learns in `make demo` and
 * the round-trip tests. One run does what a small service does at start:
 * reads its configuration, keeps state, uses a temporary file, runs a
 * helper, talks over a unix socket, listens on TCP, and uses a
 * capability. With --shadow it also reads /etc/shadow (the access a
 * generated policy must refuse).
 *
 * usage: vigil-demo-service [--shadow] [--port N] [--state DIR]
 * exit 0 when every step worked; the first failure is printed with errno.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *state = "/var/lib/vigil-demo";
static int port = 8089;

static int fail(const char *step)
{
	fprintf(stderr, "vigil-demo-service: %s: %s\n", step, strerror(errno));
	return 1;
}

static int read_file(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return fail(path);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n < 0 ? fail(path) : 0;
}

static int keep_state(void)
{
	char path[256], tmp[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/state", state);
	snprintf(tmp, sizeof(tmp), "%s/state.new", state);
	f = fopen(tmp, "w");
	if (!f)
		return fail(tmp);
	fprintf(f, "pid %d\n", getpid());
	if (fclose(f))
		return fail(tmp);
	if (rename(tmp, path))
		return fail("rename state");
	snprintf(path, sizeof(path), "%s/demo.log", state);
	f = fopen(path, "a");
	if (!f)
		return fail(path);
	fprintf(f, "started\n");
	return fclose(f) ? fail(path) : 0;
}

static int scratch(void)
{
	char path[] = "/tmp/vigil-demo-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return fail("mkstemp");
	if (write(fd, "x", 1) != 1)
		return fail("write scratch");
	close(fd);
	return unlink(path) ? fail("unlink scratch") : 0;
}

static int run_helper(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl("/usr/bin/date", "date", "-u", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return fail("helper /usr/bin/date");
	return 0;
}

static int unix_socket(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int l, c, s;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/control.sock", state);
	unlink(a.sun_path);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1))
		return fail("unix listen");
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
		return fail("unix connect");
	s = accept(l, NULL, NULL);
	if (s < 0)
		return fail("unix accept");
	close(s);
	close(c);
	close(l);
	return unlink(a.sun_path) ? fail("unlink socket") : 0;
}

static int tcp_listen(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int l, one = 1;

	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0)
		return fail("tcp socket");
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 4))
		return fail("tcp bind");
	close(l);
	return 0;
}

/* Give the state folder to the daemon user: needs CAP_CHOWN. */
static int capability(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/state", state);
	return chown(path, 1, 1) ? fail("chown state (CAP_CHOWN)") : 0;
}

int main(int argc, char **argv)
{
	int shadow = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--shadow"))
			shadow = 1;
		else if (!strcmp(argv[i], "--port") && i + 1 < argc)
			port = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--state") && i + 1 < argc)
			state = argv[++i];
		else {
			fprintf(stderr, "usage: vigil-demo-service [--shadow] [--port N] [--state DIR]\n");
			return 2;
		}
	}
	if (mkdir(state, 0755) && errno != EEXIST)
		return fail(state);
	if (read_file("/etc/hostname") || read_file("/etc/os-release") ||
	    keep_state() || scratch() || run_helper() || unix_socket() ||
	    tcp_listen() || capability())
		return 1;
	if (shadow && read_file("/etc/shadow"))
		return 1;
	printf("vigil-demo-service: ok%s\n", shadow ? " (read /etc/shadow)" : "");
	return 0;
}
