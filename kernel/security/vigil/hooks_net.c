// SPDX-License-Identifier: GPL-2.0-only
/* vigil: socket hooks (create, bind, connect, listen, accept). */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/limits.h>
#include <linux/namei.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/un.h>
#include <net/inet_sock.h>
#include <net/af_unix.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "access.h"
#include "hooks.h"
#include "path.h"
#include "subject.h"
#include "vigil.h"

/* "family:type", then ":port" or ":/unix/path" when known. */
#define NET_TARGET_MAX (32 + UNIX_PATH_MAX + 2)

static const char *family_name(int family, char *buf, size_t size)
{
	switch (family) {
	case AF_UNIX:
		return "unix";
	case AF_INET:
		return "inet";
	case AF_INET6:
		return "inet6";
	case AF_NETLINK:
		return "netlink";
	case AF_PACKET:
		return "packet";
	default:
		scnprintf(buf, size, "af%d", family);
		return buf;
	}
}

static const char *type_name(int type, char *buf, size_t size)
{
	switch (type) {
	case SOCK_STREAM:
		return "stream";
	case SOCK_DGRAM:
		return "dgram";
	case SOCK_RAW:
		return "raw";
	case SOCK_SEQPACKET:
		return "seqpacket";
	case SOCK_RDM:
		return "rdm";
	case SOCK_PACKET:
		return "packet";
	default:
		scnprintf(buf, size, "type%d", type);
		return buf;
	}
}

/* The port or unix path an address names, appended to @buf at @pos. */
static int addr_suffix(char *buf, int pos, const struct sockaddr *addr,
		       int addrlen)
{
	const struct sockaddr_un *un;
	int n;

	if (!addr || addrlen < (int)sizeof(sa_family_t))
		return pos;
	switch (addr->sa_family) {
	case AF_INET:
		if (addrlen < (int)sizeof(struct sockaddr_in))
			return pos;
		return pos + scnprintf(buf + pos, NET_TARGET_MAX - pos, ":%u",
			ntohs(((const struct sockaddr_in *)addr)->sin_port));
	case AF_INET6:
		if (addrlen < SIN6_LEN_RFC2133)
			return pos;
		return pos + scnprintf(buf + pos, NET_TARGET_MAX - pos, ":%u",
			ntohs(((const struct sockaddr_in6 *)addr)->sin6_port));
	case AF_UNIX:
		un = (const struct sockaddr_un *)addr;
		n = addrlen - (int)offsetof(struct sockaddr_un, sun_path);
		if (n <= 0)
			return pos;
		n = min_t(int, n, UNIX_PATH_MAX);
		if (un->sun_path[0] == '\0') {
			/* Abstract: "@name"; its bytes may be anything. */
			buf[pos++] = ':';
			buf[pos++] = '@';
			memcpy(buf + pos, un->sun_path + 1, n - 1);
			return pos + n - 1;
		}
		n = strnlen(un->sun_path, n);
		buf[pos++] = ':';
		memcpy(buf + pos, un->sun_path, n);
		return pos + n;
	default:
		return pos;
	}
}

/*
 * The compact key of the target net_event() builds: family, type and the
 * port it names (0: none, else port + 1), or 0 when the address is not a
 * port (unix, others): one key for one target string, and back.
 */
static u64 net_fast(int family, int type, const struct sockaddr *addr,
		    int addrlen, int port)
{
	u64 k = VIGIL_FAST_NET | (u64)(u16)family << 40 | (u64)(u16)type << 24;

	if (!addr)
		return k | (port > 0 ? (u32)port + 1 : 0);
	if (addrlen < (int)sizeof(sa_family_t))
		return k;
	switch (addr->sa_family) {
	case AF_INET:
		if (addrlen < (int)sizeof(struct sockaddr_in))
			return k;
		return k | (ntohs(((const struct sockaddr_in *)addr)->sin_port) + 1U);
	case AF_INET6:
		if (addrlen < SIN6_LEN_RFC2133)
			return k;
		return k | (ntohs(((const struct sockaddr_in6 *)addr)->sin6_port) + 1U);
	case AF_UNIX:
		return 0;
	default:
		return k;
	}
}

/* A socket access the fast path did not count: build its target. */
static noinline void net_event_slow(const struct cred *cred, enum vigil_op op,
				    u64 access, u64 fast, int family, int type,
				    const struct sockaddr *addr, int addrlen,
				    int port, bool may_sleep, u64 netns)
{
	char target[NET_TARGET_MAX], fbuf[16], tbuf[16];
	struct vigil_access acc = {
		.op = op,
		.access = access,
		.target = target,
		.ad.type = LSM_AUDIT_DATA_NONE,
		.may_sleep = may_sleep,
		.fast = fast,
		.netns = netns,
	};
	int pos;

	pos = scnprintf(target, sizeof(target), "%s:%s",
			family_name(family, fbuf, sizeof(fbuf)),
			type_name(type, tbuf, sizeof(tbuf)));
	if (addr)
		pos = addr_suffix(target, pos, addr, addrlen);
	else if (port > 0)
		pos += scnprintf(target + pos, sizeof(target) - pos, ":%d",
				 port);
	acc.target_len = pos;
	vigil_observe(cred, &acc);
}

static void net_event(enum vigil_op op, u64 access, int family, int type,
		      const struct sockaddr *addr, int addrlen, int port,
		      bool may_sleep, u64 netns)
{
	const struct cred *cred = current_real_cred();
	u64 fast = net_fast(family, type, addr, addrlen, port);

	if (!in_task() || !vigil_observe_fast(cred, op, access, fast))
		net_event_slow(cred, op, access, fast, family, type, addr,
			       addrlen, port, may_sleep, netns);
}

/*
 * Abstract unix names are per network namespace, unlike paths: a name in
 * another namespace than the initial one is another object (a user's own
 * "@bus" in unshare -rn is not the host's). Its namespace's cookie, never
 * reused; 0 for the initial namespace and for every other address. No fast
 * key: unix addresses always take the slow path (net_fast()).
 */
static u64 abstract_netns(const struct socket *sock,
			  const struct sockaddr *addr, int addrlen)
{
	const struct net *net;

	if (sock->sk->sk_family != AF_UNIX || !addr ||
	    addrlen <= (int)offsetof(struct sockaddr_un, sun_path) ||
	    addr->sa_family != AF_UNIX ||
	    ((const struct sockaddr_un *)addr)->sun_path[0] != '\0')
		return 0;
	net = sock_net(sock->sk);
	return net_eq(net, &init_net) ? 0 : net->net_cookie;
}

/*
 * A unix address naming a file: the object is the peer's bound path, as
 * the unix_* hooks below see it once the kernel resolved the name (a
 * relative name, "..", a symlink), not the caller's sun_path.
 */
static bool unix_path_addr(const struct sockaddr *addr, int addrlen)
{
	const struct sockaddr_un *un = (const struct sockaddr_un *)addr;

	return addr && addr->sa_family == AF_UNIX &&
	       addrlen > (int)offsetof(struct sockaddr_un, sun_path) &&
	       un->sun_path[0] != '\0';
}

/*
 * A connect (or send) to the unix socket @other bound to a file: target
 * "unix:TYPE:PATH", PATH resolved like any file's, in this CPU's buffer
 * (every send walks the path: no allocation for it). Under the peer's
 * state lock: never sleeps, never waits for audit.
 */
static void unix_peer_event(const struct sock *sk, const struct sock *other)
{
	const struct path *path = &unix_sk(other)->path;
	struct vigil_access acc = {
		.op = VIGIL_OP_CONNECT,
		.access = VIGIL_NET_CONNECT,
		.ad.type = LSM_AUDIT_DATA_NONE,
	};
	char tbuf[16], prefix[VIGIL_SCRATCH_PREFIX], *buf;
	const char *p;
	bool foreign;
	int n;

	if (!path->dentry || sk->sk_kern_sock)
		return;	/* abstract or unbound: recorded at connect/sendmsg */
	buf = vigil_scratch_get();
	n = scnprintf(prefix, sizeof(prefix), "unix:%s:",
		      type_name(sk->sk_type, tbuf, sizeof(tbuf)));
	p = vigil_path_resolve(path, buf + sizeof(prefix), &foreign);
	if (!strcmp(p, "?")) {
		acc.target = buf;
		acc.target_len = scnprintf(buf, sizeof(prefix) + 2, "%s?",
					   prefix);
	} else {
		/* p is inside buf, past sizeof(prefix): the prefix goes first. */
		memcpy((char *)p - n, prefix, n);
		acc.target = p - n;
		acc.target_len = strlen(p) + n;
	}
	vigil_observe(current_real_cred(), &acc);
	vigil_scratch_put();
}

static int vigil_unix_stream_connect(struct sock *sock, struct sock *other,
				     struct sock *newsk)
{
	if (vigil_should_observe())
		unix_peer_event(sock, other);
	return 0;
}

/* A datagram connect or send (connected or not) to @other. */
static int vigil_unix_may_send(struct socket *sock, struct socket *other)
{
	if (vigil_should_observe() && sock->sk && other->sk)
		unix_peer_event(sock->sk, other->sk);
	return 0;
}

/* The local port of a bound inet socket, else 0. */
static int local_port(const struct socket *sock)
{
	const struct sock *sk = sock->sk;

	if (!sk || (sk->sk_family != AF_INET && sk->sk_family != AF_INET6))
		return 0;
	return ntohs(inet_sk(sk)->inet_sport);
}

static int vigil_socket_create(int family, int type, int protocol, int kern)
{
	if (vigil_should_observe() && !kern)
		net_event(VIGIL_OP_SOCKET, VIGIL_NET_SOCKET, family, type,
			  NULL, 0, 0, true, 0);
	return 0;
}

static int vigil_socket_bind(struct socket *sock, struct sockaddr *address,
			     int addrlen)
{
	if (vigil_should_observe() && sock->sk)
		net_event(VIGIL_OP_BIND, VIGIL_NET_BIND, sock->sk->sk_family,
			  sock->type, address, addrlen, 0, true,
			  abstract_netns(sock, address, addrlen));
	return 0;
}

/*
 * A connect to a unix path that names no socket (none there, or not a
 * socket: a program trying nscd's, a daemon's that is not running) never
 * reaches the unix_* hooks, yet the caller asked for it and an enforcing
 * module judges it (SELinux: connect on the socket, search and symlink
 * reads on the way): it is recorded by the absolute name the caller
 * passed. A relative name is left to the peer hooks (it has no meaning
 * without the caller's folder). May sleep (the lookup).
 */
static bool unix_path_unbound(const struct sockaddr *addr, int addrlen)
{
	const struct sockaddr_un *un = (const struct sockaddr_un *)addr;
	char name[UNIX_PATH_MAX + 1];
	struct path path;
	int n = min_t(int, addrlen - (int)offsetof(struct sockaddr_un, sun_path),
		      UNIX_PATH_MAX);
	bool unbound;

	memcpy(name, un->sun_path, n);
	name[n] = '\0';
	if (name[0] != '/')
		return false;
	if (kern_path(name, LOOKUP_FOLLOW, &path))
		return true;
	unbound = !S_ISSOCK(d_backing_inode(path.dentry)->i_mode);
	path_put(&path);
	return unbound;
}

static int vigil_socket_connect(struct socket *sock, struct sockaddr *address,
				int addrlen)
{
	if (vigil_should_observe() && sock->sk &&
	    (!unix_path_addr(address, addrlen) ||
	     unix_path_unbound(address, addrlen)))
		net_event(VIGIL_OP_CONNECT, VIGIL_NET_CONNECT,
			  sock->sk->sk_family, sock->type, address, addrlen, 0, true,
			  abstract_netns(sock, address, addrlen));
	return 0;
}

static int vigil_socket_listen(struct socket *sock, int backlog)
{
	if (vigil_should_observe() && sock->sk)
		net_event(VIGIL_OP_LISTEN, VIGIL_NET_LISTEN,
			  sock->sk->sk_family, sock->type, NULL, 0,
			  local_port(sock), true, 0);
	return 0;
}

static int vigil_socket_accept(struct socket *sock, struct socket *newsock)
{
	if (vigil_should_observe() && sock->sk)
		net_event(VIGIL_OP_ACCEPT, VIGIL_NET_ACCEPT,
			  sock->sk->sk_family, sock->type, NULL, 0,
			  local_port(sock), true, 0);
	return 0;
}

/*
 * A send with an address (sendto, sendmsg on an unconnected socket) is a
 * connect to that address. It may come from the kernel (kernel_sendmsg)
 * under its locks: never waits for audit.
 */
static int vigil_socket_sendmsg(struct socket *sock, struct msghdr *msg,
				int size)
{
	if (vigil_should_observe() && sock->sk && msg->msg_name &&
	    msg->msg_namelen > 0 &&
	    !unix_path_addr(msg->msg_name, msg->msg_namelen))
		net_event(VIGIL_OP_CONNECT, VIGIL_NET_CONNECT,
			  sock->sk->sk_family, sock->type, msg->msg_name,
			  msg->msg_namelen, 0, false,
			  abstract_netns(sock, msg->msg_name, msg->msg_namelen));
	return 0;
}

static struct security_hook_list net_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(socket_create, vigil_socket_create),
	LSM_HOOK_INIT(socket_bind, vigil_socket_bind),
	LSM_HOOK_INIT(socket_connect, vigil_socket_connect),
	LSM_HOOK_INIT(socket_listen, vigil_socket_listen),
	LSM_HOOK_INIT(socket_accept, vigil_socket_accept),
	LSM_HOOK_INIT(socket_sendmsg, vigil_socket_sendmsg),
	LSM_HOOK_INIT(unix_stream_connect, vigil_unix_stream_connect),
	LSM_HOOK_INIT(unix_may_send, vigil_unix_may_send),
};

void __init vigil_net_hooks_init(void)
{
	security_add_hooks(net_hooks, ARRAY_SIZE(net_hooks), VIGIL_LSM_ID);
}
