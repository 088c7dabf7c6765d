// The C declarations of Apple's SDK (macOS 15 / iOS 18, arm64 and x86_64 alike) that ListSync's Darwin
// branches use, copied with their Darwin types, field order and constant values, so that
// .ci/darwin-check can type-check those branches on Linux. Not a complete SDK: a symbol the code starts
// to use must be added here from the SDK header named beside its group, never adjusted to make a call
// compile. Variadic functions (open, fcntl) are declared variadic: Swift does not import them, and the
// overlay (Darwin.swift) provides what the real overlay does.
//
// Linux's own C declarations are loaded in the same compiler (Foundation and Dispatch, which ListSync
// imports, bring them), and C has one namespace: so every type and function here has a `darwin_` C
// name and takes its Darwin name in Swift with `swift_name`. Only `size_t` and `ssize_t` keep theirs
// (Swift maps them to Int by name; they are the same types on 64-bit Linux).
#ifndef CDARWINSHIM_H
#define CDARWINSHIM_H

#define DARWIN_NAME(name) __attribute__((swift_name(name)))

// <sys/_types.h>, <arm/_types.h>, <sys/_types/*.h> (Darwin: __int64_t is long long, __uint64_t
// unsigned long long, unlike Linux's long)
typedef unsigned long __darwin_size_t;
typedef long __darwin_ssize_t;
typedef __darwin_size_t size_t;
typedef __darwin_ssize_t ssize_t;
typedef long long darwin_off_t DARWIN_NAME("off_t");
typedef unsigned short darwin_mode_t DARWIN_NAME("mode_t");
typedef int darwin_dev_t DARWIN_NAME("dev_t");
typedef unsigned short darwin_nlink_t DARWIN_NAME("nlink_t");
typedef unsigned int darwin_uid_t DARWIN_NAME("uid_t");
typedef unsigned int darwin_gid_t DARWIN_NAME("gid_t");
typedef int darwin_pid_t DARWIN_NAME("pid_t");
typedef long long darwin_blkcnt_t DARWIN_NAME("blkcnt_t");
typedef int darwin_blksize_t DARWIN_NAME("blksize_t");
typedef long darwin_time_t DARWIN_NAME("time_t");
typedef unsigned int darwin_useconds_t DARWIN_NAME("useconds_t");
typedef unsigned int darwin_socklen_t DARWIN_NAME("socklen_t");
typedef unsigned char darwin_sa_family_t DARWIN_NAME("sa_family_t");
typedef unsigned short darwin_in_port_t DARWIN_NAME("in_port_t");
typedef unsigned int darwin_in_addr_t DARWIN_NAME("in_addr_t");
typedef unsigned int darwin_nfds_t DARWIN_NAME("nfds_t");

// <sys/errno.h>
int *darwin___error(void) DARWIN_NAME("__error()");
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EEXIST 17
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define EFBIG 27
#define ENOSPC 28
#define EROFS 30
#define EPIPE 32
#define EAGAIN 35
#define EWOULDBLOCK EAGAIN
#define EINPROGRESS 36
#define ENOTSOCK 38
#define EADDRINUSE 48
#define EADDRNOTAVAIL 49
#define ENETDOWN 50
#define ENETUNREACH 51
#define ECONNABORTED 53
#define ECONNRESET 54
#define ENOBUFS 55
#define ENOTCONN 57
#define ETIMEDOUT 60
#define ECONNREFUSED 61
#define EHOSTUNREACH 65
#define ENOTEMPTY 66
#define EDQUOT 69
#define ENOSYS 78
#define ECANCELED 89

// <string.h>
char *darwin_strerror(int) DARWIN_NAME("strerror(_:)");

// <unistd.h>
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
ssize_t darwin_read(int, void *, size_t) DARWIN_NAME("read(_:_:_:)");
ssize_t darwin_write(int, const void *, size_t) DARWIN_NAME("write(_:_:_:)");
ssize_t darwin_pread(int, void *, size_t, darwin_off_t) DARWIN_NAME("pread(_:_:_:_:)");
int darwin_close(int) DARWIN_NAME("close(_:)");
int darwin_gethostname(char *, size_t) DARWIN_NAME("gethostname(_:_:)");
int darwin_pipe(int[2]) DARWIN_NAME("pipe(_:)");
int darwin_fsync(int) DARWIN_NAME("fsync(_:)");
int darwin_ftruncate(int, darwin_off_t) DARWIN_NAME("ftruncate(_:_:)");
int darwin_unlink(const char *) DARWIN_NAME("unlink(_:)");
int darwin_rmdir(const char *) DARWIN_NAME("rmdir(_:)");
int darwin_usleep(darwin_useconds_t) DARWIN_NAME("usleep(_:)");

// <fcntl.h>, <sys/fcntl.h> (open and fcntl are variadic: see Darwin.swift)
#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_NONBLOCK 0x00000004
#define O_APPEND 0x00000008
#define O_CREAT 0x00000200
#define O_TRUNC 0x00000400
#define O_EXCL 0x00000800
#define O_DIRECTORY 0x00100000
#define O_CLOEXEC 0x01000000
#define F_GETFL 3
#define F_SETFL 4
#define F_FULLFSYNC 51
#define LOCK_SH 0x01
#define LOCK_EX 0x02
#define LOCK_NB 0x04
#define LOCK_UN 0x08
struct darwin_flock {
    darwin_off_t l_start;
    darwin_off_t l_len;
    darwin_pid_t l_pid;
    short l_type;
    short l_whence;
} DARWIN_NAME("flock");
int darwin_flock(int, int) DARWIN_NAME("flock(_:_:)");

// <sys/stat.h>, <sys/_types/_timespec.h>
struct darwin_timespec {
    darwin_time_t tv_sec;
    long tv_nsec;
} DARWIN_NAME("timespec");
struct darwin_stat {
    darwin_dev_t st_dev;
    darwin_mode_t st_mode;
    darwin_nlink_t st_nlink;
    unsigned long long st_ino;
    darwin_uid_t st_uid;
    darwin_gid_t st_gid;
    darwin_dev_t st_rdev;
    struct darwin_timespec st_atimespec;
    struct darwin_timespec st_mtimespec;
    struct darwin_timespec st_ctimespec;
    struct darwin_timespec st_birthtimespec;
    darwin_off_t st_size;
    darwin_blkcnt_t st_blocks;
    darwin_blksize_t st_blksize;
    unsigned int st_flags;
    unsigned int st_gen;
    int st_lspare;
    long long st_qspare[2];
} DARWIN_NAME("stat");
int darwin_stat(const char *, struct darwin_stat *) DARWIN_NAME("stat(_:_:)");
int darwin_fstat(int, struct darwin_stat *) DARWIN_NAME("fstat(_:_:)");
int darwin_mkdir(const char *, darwin_mode_t) DARWIN_NAME("mkdir(_:_:)");

// <stdio.h>
int darwin_rename(const char *, const char *) DARWIN_NAME("rename(_:_:)");

// <dirent.h>, <sys/dirent.h>
struct darwin_dirent {
    unsigned long long d_ino;
    unsigned long long d_seekoff;
    unsigned short d_reclen;
    unsigned short d_namlen;
    unsigned char d_type;
    char d_name[1024];
} DARWIN_NAME("dirent");
typedef struct {
    int __dd_fd;
    long __dd_loc;
    long __dd_size;
    char *__dd_buf;
    int __dd_len;
    long __dd_seek;
    long __padding;
    int __dd_flags;
} darwin_DIR DARWIN_NAME("DIR");
darwin_DIR *darwin_opendir(const char *) DARWIN_NAME("opendir(_:)");
struct darwin_dirent *darwin_readdir(darwin_DIR *) DARWIN_NAME("readdir(_:)");
int darwin_closedir(darwin_DIR *) DARWIN_NAME("closedir(_:)");

// <stdlib.h>, <sys/random.h>
void darwin_arc4random_buf(void *, size_t) DARWIN_NAME("arc4random_buf(_:_:)");
int darwin_getentropy(void *, size_t) DARWIN_NAME("getentropy(_:_:)");

// <poll.h>
#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
struct darwin_pollfd {
    int fd;
    short events;
    short revents;
} DARWIN_NAME("pollfd");
int darwin_poll(struct darwin_pollfd *, darwin_nfds_t, int) DARWIN_NAME("poll(_:_:_:)");

// <sys/socket.h> (no MSG_NOSIGNAL: Darwin code sets SO_NOSIGPIPE)
#define SOCK_STREAM 1
#define SOL_SOCKET 0xffff
#define SO_ACCEPTCONN 0x0002
#define SO_REUSEADDR 0x0004
#define SO_LINGER 0x0080
#define SO_SNDBUF 0x1001
#define SO_RCVBUF 0x1002
#define SO_ERROR 0x1007
#define SO_NOSIGPIPE 0x1022
#define AF_UNSPEC 0
#define AF_INET 2
#define AF_INET6 30
#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2
struct darwin_sockaddr {
    unsigned char sa_len;
    darwin_sa_family_t sa_family;
    char sa_data[14];
} DARWIN_NAME("sockaddr");
struct darwin_sockaddr_storage {
    unsigned char ss_len;
    darwin_sa_family_t ss_family;
    char __ss_pad1[6];
    long long __ss_align;
    char __ss_pad2[112];
} DARWIN_NAME("sockaddr_storage");
int darwin_socket(int, int, int) DARWIN_NAME("socket(_:_:_:)");
int darwin_bind(int, const struct darwin_sockaddr *, darwin_socklen_t) DARWIN_NAME("bind(_:_:_:)");
int darwin_listen(int, int) DARWIN_NAME("listen(_:_:)");
int darwin_accept(int, struct darwin_sockaddr *__restrict, darwin_socklen_t *__restrict)
    DARWIN_NAME("accept(_:_:_:)");
int darwin_connect(int, const struct darwin_sockaddr *, darwin_socklen_t) DARWIN_NAME("connect(_:_:_:)");
int darwin_getsockname(int, struct darwin_sockaddr *__restrict, darwin_socklen_t *__restrict)
    DARWIN_NAME("getsockname(_:_:_:)");
int darwin_getsockopt(int, int, int, void *__restrict, darwin_socklen_t *__restrict)
    DARWIN_NAME("getsockopt(_:_:_:_:_:)");
int darwin_setsockopt(int, int, int, const void *, darwin_socklen_t) DARWIN_NAME("setsockopt(_:_:_:_:_:)");
ssize_t darwin_send(int, const void *, size_t, int) DARWIN_NAME("send(_:_:_:_:)");
#define SOCK_DGRAM 2
#define SO_REUSEPORT 0x0200
ssize_t darwin_sendto(int, const void *, size_t, int, const struct darwin_sockaddr *, darwin_socklen_t)
    DARWIN_NAME("sendto(_:_:_:_:_:_:)");
ssize_t darwin_recvfrom(int, void *__restrict, size_t, int, struct darwin_sockaddr *__restrict,
                        darwin_socklen_t *__restrict) DARWIN_NAME("recvfrom(_:_:_:_:_:_:)");
int darwin_shutdown(int, int) DARWIN_NAME("shutdown(_:_:)");

// <netinet/in.h>, <netinet6/in6.h>, <netinet/tcp.h>
#define IPPROTO_IP 0
#define IPPROTO_TCP 6
#define IPPROTO_IPV6 41
#define IPV6_V6ONLY 27
#define IP_MULTICAST_IF 9
#define IP_MULTICAST_TTL 10
#define IP_MULTICAST_LOOP 11
#define IP_ADD_MEMBERSHIP 12
#define IPV6_MULTICAST_IF 9
#define IPV6_MULTICAST_HOPS 10
#define IPV6_MULTICAST_LOOP 11
#define IPV6_JOIN_GROUP 12
#define TCP_NODELAY 0x01
#define INET_ADDRSTRLEN 16
#define INET6_ADDRSTRLEN 46
struct darwin_in_addr {
    darwin_in_addr_t s_addr;
} DARWIN_NAME("in_addr");
struct darwin_sockaddr_in {
    unsigned char sin_len;
    darwin_sa_family_t sin_family;
    darwin_in_port_t sin_port;
    struct darwin_in_addr sin_addr;
    char sin_zero[8];
} DARWIN_NAME("sockaddr_in");
struct darwin_in6_addr {
    union {
        unsigned char __u6_addr8[16];
        unsigned short __u6_addr16[8];
        unsigned int __u6_addr32[4];
    } __u6_addr;
} DARWIN_NAME("in6_addr");
struct darwin_sockaddr_in6 {
    unsigned char sin6_len;
    darwin_sa_family_t sin6_family;
    darwin_in_port_t sin6_port;
    unsigned int sin6_flowinfo;
    struct darwin_in6_addr sin6_addr;
    unsigned int sin6_scope_id;
} DARWIN_NAME("sockaddr_in6");

struct darwin_ip_mreq {
    struct darwin_in_addr imr_multiaddr;
    struct darwin_in_addr imr_interface;
} DARWIN_NAME("ip_mreq");
struct darwin_ipv6_mreq {
    struct darwin_in6_addr ipv6mr_multiaddr;
    unsigned int ipv6mr_interface;
} DARWIN_NAME("ipv6_mreq");

// <arpa/inet.h>
int darwin_inet_pton(int, const char *, void *) DARWIN_NAME("inet_pton(_:_:_:)");
const char *darwin_inet_ntop(int, const void *, char *, darwin_socklen_t) DARWIN_NAME("inet_ntop(_:_:_:_:)");

// <netdb.h>
#define AI_PASSIVE 0x00000001
#define AI_CANONNAME 0x00000002
#define AI_NUMERICHOST 0x00000004
#define AI_ADDRCONFIG 0x00000400
#define AI_NUMERICSERV 0x00001000
#define EAI_AGAIN 2
#define EAI_BADFLAGS 3
#define EAI_FAIL 4
#define EAI_FAMILY 5
#define EAI_MEMORY 6
#define EAI_NODATA 7
#define EAI_NONAME 8
#define EAI_SERVICE 9
#define EAI_SOCKTYPE 10
#define EAI_SYSTEM 11
#define NI_MAXHOST 1025
#define NI_NUMERICHOST 0x00000002
#define NI_NUMERICSERV 0x00000008
struct darwin_addrinfo {
    int ai_flags;
    int ai_family;
    int ai_socktype;
    int ai_protocol;
    darwin_socklen_t ai_addrlen;
    char *ai_canonname;
    struct darwin_sockaddr *ai_addr;
    struct darwin_addrinfo *ai_next;
} DARWIN_NAME("addrinfo");
int darwin_getaddrinfo(const char *__restrict, const char *__restrict, const struct darwin_addrinfo *__restrict,
                       struct darwin_addrinfo **__restrict) DARWIN_NAME("getaddrinfo(_:_:_:_:)");
void darwin_freeaddrinfo(struct darwin_addrinfo *) DARWIN_NAME("freeaddrinfo(_:)");
const char *darwin_gai_strerror(int) DARWIN_NAME("gai_strerror(_:)");
int darwin_getnameinfo(const struct darwin_sockaddr *__restrict, darwin_socklen_t, char *__restrict,
                       darwin_socklen_t, char *__restrict, darwin_socklen_t, int)
    DARWIN_NAME("getnameinfo(_:_:_:_:_:_:_:)");

// <net/if.h>
#define IF_NAMESIZE 16
unsigned int darwin_if_nametoindex(const char *) DARWIN_NAME("if_nametoindex(_:)");
char *darwin_if_indextoname(unsigned int, char *) DARWIN_NAME("if_indextoname(_:_:)");
#define IFF_UP 0x1
#define IFF_LOOPBACK 0x8
#define IFF_RUNNING 0x40
#define IFF_MULTICAST 0x8000

// <ifaddrs.h>
struct darwin_ifaddrs {
    struct darwin_ifaddrs *ifa_next;
    char *ifa_name;
    unsigned int ifa_flags;
    struct darwin_sockaddr *ifa_addr;
    struct darwin_sockaddr *ifa_netmask;
    struct darwin_sockaddr *ifa_dstaddr;
    void *ifa_data;
} DARWIN_NAME("ifaddrs");
int darwin_getifaddrs(struct darwin_ifaddrs **) DARWIN_NAME("getifaddrs(_:)");
void darwin_freeifaddrs(struct darwin_ifaddrs *) DARWIN_NAME("freeifaddrs(_:)");

#endif
