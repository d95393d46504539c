#define _GNU_SOURCE
#include "CHostSandbox.h"
#include "sandbox_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/types.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Landlock's numbers and layouts from the kernel's ABI: Debian 12's headers (6.1) stop before
 * truncation (ABI 3), TCP (ABI 4) and scopes (ABI 6). */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1

#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)    /* ABI 2 */
#define LL_FS_TRUNCATE (1ULL << 14) /* ABI 3 */

#define LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */

#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)               /* ABI 6 */

struct ll_ruleset_attr {
    __u64 handled_access_fs;
    __u64 handled_access_net;
    __u64 scoped;
};

struct ll_path_beneath_attr {
    __u64 allowed_access;
    __s32 parent_fd;
} __attribute__((packed));

/* Every file right this ABI knows (IOCTL_DEV, ABI 5, is left to the descriptors the host
 * passes: a terminal's ioctls must keep working). */
static __u64 handled_fs(int abi) {
    __u64 rights = LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE |
                   LL_FS_MAKE_CHAR | LL_FS_MAKE_DIR | LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_BLOCK |
                   LL_FS_MAKE_SYM;
    if (abi >= 2) rights |= LL_FS_REFER;
    if (abi >= 3) rights |= LL_FS_TRUNCATE;
    return rights;
}

int modhost_sandbox_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

int modhost_sandbox_ruleset(int abi, int tcp) {
    struct ll_ruleset_attr attributes = {0};
    attributes.handled_access_fs = handled_fs(abi);
    if (abi >= 4 && !tcp) attributes.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
    if (abi >= 6) attributes.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
    /* The attribute's size grows with the ABI: an older kernel refuses fields it does not know. */
    size_t size = abi >= 6 ? sizeof attributes : abi >= 4 ? offsetof(struct ll_ruleset_attr, scoped) : sizeof(__u64);
    long ruleset = syscall(__NR_landlock_create_ruleset, &attributes, size, 0);
    return ruleset < 0 ? -errno : (int)ruleset;
}

#ifndef __NR_openat2
#define __NR_openat2 437
#endif

/* openat2's how (linux/openat2.h, not in Debian 12's headers). */
struct modhost_open_how {
    __u64 flags;
    __u64 mode;
    __u64 resolve;
};
#define MODHOST_RESOLVE_NO_SYMLINKS 0x04

int modhost_sandbox_allow_path(int ruleset, int abi, const char *path, int access, int no_symlinks) {
    int fd;
    if (no_symlinks) {
        struct modhost_open_how how = {.flags = O_PATH | O_CLOEXEC, .mode = 0, .resolve = MODHOST_RESOLVE_NO_SYMLINKS};
        fd = (int)syscall(__NR_openat2, AT_FDCWD, path, &how, sizeof how);
    } else {
        fd = open(path, O_PATH | O_CLOEXEC);
    }
    if (fd < 0) return errno;
    struct stat status;
    if (fstat(fd, &status) != 0) {
        int error = errno;
        close(fd);
        return error;
    }
    __u64 rights = 0;
    if (access & MODHOST_SANDBOX_READ) rights |= LL_FS_READ_FILE | LL_FS_READ_DIR;
    if (access & MODHOST_SANDBOX_EXECUTE) rights |= LL_FS_EXECUTE;
    if (access & MODHOST_SANDBOX_WRITE) {
        rights |= LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_DIR | LL_FS_MAKE_REG | LL_FS_MAKE_SYM |
                  LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_REFER | LL_FS_TRUNCATE;
    }
    /* A file takes only the rights of a file. */
    if (!S_ISDIR(status.st_mode)) rights &= LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE;
    rights &= handled_fs(abi);
    struct ll_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
    int result = syscall(__NR_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0) == 0 ? 0 : errno;
    close(fd);
    return result;
}

int modhost_sandbox_restrict(int ruleset) {
    int result = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) result = errno;
    close(ruleset);
    return result;
}

int modhost_sandbox_drop_capabilities(void) {
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return errno;
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2] = {{0}};
    /* The bounding set changes only with CAP_SETPCAP: without it every drop is refused (and the
     * set holds nothing this process could use anyway), so none is tried. */
    int may_drop = syscall(SYS_capget, &header, data) != 0 || (data[0].effective & (1u << 8 /* CAP_SETPCAP */)) != 0;
    for (int capability = 0; may_drop && capability <= 63; capability++) {
        if (prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) == 0) continue;
        /* EINVAL past the last capability this kernel knows: the rest are past it too. */
        if (errno == EINVAL) break;
        if (errno != EPERM) return errno;
    }
    memset(data, 0, sizeof data);
    return syscall(SYS_capset, &header, data) == 0 ? 0 : errno;
}

int modhost_sandbox_wipe_initial_environment(void) {
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    char text[4096];
    ssize_t size = read(fd, text, sizeof text - 1);
    close(fd);
    if (size <= 0) return EIO;
    text[size] = 0;
    /* Fields after the command's name, which may hold spaces and ends with the last ')'. */
    char *field = strrchr(text, ')');
    if (field == NULL) return EIO;
    unsigned long start = 0, end = 0;
    /* env_start and env_end are fields 50 and 51; the name was field 2. */
    for (int number = 3; number <= 51 && field != NULL; number++) {
        field = strchr(field + 1, ' ');
        if (field == NULL) break;
        if (number == 50) start = strtoul(field + 1, NULL, 10);
        if (number == 51) end = strtoul(field + 1, NULL, 10);
    }
    if (start == 0 || end <= start) return EIO;
    memset((void *)start, 0, end - start);
    return 0;
}

/* System calls no module needs, refused (or logged) always. */
static const char *const refused[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root", "chroot", "bpf", "keyctl",
    "add_key", "request_key", "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "perf_event_open", "unshare", "setns", "personality", "userfaultfd", "open_by_handle_at", "swapon", "swapoff",
    "reboot", "acct", "iopl", "ioperm", "fsopen", "fsmount", "move_mount", "open_tree",
    /* io_uring's socket and send operations would go around the socket rule below. */
    "io_uring_setup", "io_uring_enter", "io_uring_register",
};

/* clone's flags that make a namespace (unshare's, through the other door). */
static const uint64_t namespace_flags[] = {
    0x00020000 /* CLONE_NEWNS */, 0x02000000 /* CLONE_NEWCGROUP */, 0x04000000 /* CLONE_NEWUTS */,
    0x08000000 /* CLONE_NEWIPC */, 0x10000000 /* CLONE_NEWUSER */,   0x20000000 /* CLONE_NEWPID */,
    0x40000000 /* CLONE_NEWNET */,
};

/* The calls that make or remove a file, handed over to be named (or, in the audit mode,
 * noted); open and openat are handed over by add_file_calls below. */
static const char *const file_calls[] = {
    "openat2", "creat", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat",
    "renameat2", "truncate", "link", "linkat", "symlink", "symlinkat", "mknod", "mknodat",
};

/* Hands `filter`'s calls on files over with `action`: an O_PATH open reads nothing and Landlock
 * lets it through, so the filter keeps it (the loader and the host's own checks make many). */
static int add_file_calls(scmp_filter_ctx filter, uint32_t action) {
    int result = -seccomp_rule_add(filter, action, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, O_PATH, 0));
    if (result == 0) result = -seccomp_rule_add(filter, action, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, O_PATH, 0));
    for (size_t index = 0; index < sizeof file_calls / sizeof file_calls[0] && result == 0; index++) {
        int number = seccomp_syscall_resolve_name(file_calls[index]);
        if (number == __NR_SCMP_ERROR) continue;
        result = -seccomp_rule_add(filter, action, number, 0);
    }
    return result;
}

int modhost_sandbox_build_filter(scmp_filter_ctx *built, int network, int exec, int audit, int watched, int notifies) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) return ENOMEM;
    uint32_t action = notifies ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM);
    if (audit) network = exec = 0;
    int result = audit || watched ? add_file_calls(filter, SCMP_ACT_NOTIFY) : 0;
    /* A new process (not a thread), for the host to count against the module's limit. */
    if (result == 0 && watched) {
        result = -seccomp_rule_add(filter, SCMP_ACT_NOTIFY, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
        if (result == 0) result = -seccomp_rule_add(filter, SCMP_ACT_NOTIFY, SCMP_SYS(fork), 0);
        if (result == 0) result = -seccomp_rule_add(filter, SCMP_ACT_NOTIFY, SCMP_SYS(vfork), 0);
    }
    for (size_t index = 0; index < sizeof refused / sizeof refused[0] && result == 0; index++) {
        int number = seccomp_syscall_resolve_name(refused[index]);
        if (number == __NR_SCMP_ERROR) continue; /* not a call of this architecture */
        result = -seccomp_rule_add(filter, action, number, 0);
    }
    /* No socket at all without `network` (a UNIX one would reach the session bus, an agent,
     * a display); with it, no UNIX one. socketpair stays: it reaches nothing outside. */
    /* syslog's datagram socket, refused without a word: libdispatch logs through syslog when it
     * cannot raise a worker's priority, which no process without CAP_SYS_NICE can; that is not
     * the module's doing. */
    /* The family compared as the kernel reads it, 32 bits: 0x100000001 is AF_UNIX too. Rules
     * that do not overlap (a rule on the call alone would clear those on its arguments). */
    if (result == 0) {
        result = -seccomp_rule_add(
            filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 2, SCMP_A0_32(SCMP_CMP_EQ, AF_UNIX),
            SCMP_A1_32(SCMP_CMP_MASKED_EQ, 0xF, SOCK_DGRAM));
    }
    if (result == 0 && !network) result = -seccomp_rule_add(filter, action, SCMP_SYS(socket), 1, SCMP_A0_32(SCMP_CMP_NE, AF_UNIX));
    /* Every UNIX socket type but the datagram one above. */
    static const int unix_types[] = {SOCK_STREAM, SOCK_RAW, SOCK_RDM, SOCK_SEQPACKET};
    for (size_t index = 0; index < sizeof unix_types / sizeof unix_types[0] && result == 0; index++) {
        result = -seccomp_rule_add(
            filter, action, SCMP_SYS(socket), 2, SCMP_A0_32(SCMP_CMP_EQ, AF_UNIX),
            SCMP_A1_32(SCMP_CMP_MASKED_EQ, 0xF, unix_types[index]));
    }
    /* Typing into the terminal it shares with the person (TIOCSTI, TIOCLINUX's paste). */
    if (result == 0) result = -seccomp_rule_add(filter, action, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFF, 0x5412));
    if (result == 0) result = -seccomp_rule_add(filter, action, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFF, 0x541C));
    for (size_t index = 0; index < sizeof namespace_flags / sizeof namespace_flags[0] && result == 0; index++) {
        uint64_t flag = namespace_flags[index];
        result = -seccomp_rule_add(filter, action, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
    }
    /* clone3's flags are in memory, out of a filter's sight: "not here", and glibc uses clone. */
    if (result == 0) result = -seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    /* Every thread of the process, not only the caller's. */
    if (result == 0) result = -seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    /* The calls in a binary tree, not a list: a call is found in a few comparisons, and the
     * kernel, which runs the filter once for every call number as it loads it (to learn which
     * it always allows), loads it in a fraction of the time. */
    /* Speed only: a libseccomp that does not know the attribute builds the same filter as a list. */
    if (result == 0) (void)seccomp_attr_set(filter, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    /* Without `exec`, refused; with it, handed over when watched, so that the host names a
     * program Landlock will refuse (one outside the program folders). */
    if (result == 0 && (!exec || watched)) {
        uint32_t running = exec ? SCMP_ACT_NOTIFY : action;
        result = -seccomp_rule_add(filter, running, SCMP_SYS(execve), 0);
        if (result == 0) result = -seccomp_rule_add(filter, running, SCMP_SYS(execveat), 0);
    }
    /* Every signal sent, handed to the host: one a process sends itself is noted (so that a
     * process that ends itself is not taken for one ended from outside) and let through, as is
     * one to a process it started; one to any other process (the host, its group) is refused
     * and named, which Landlock's scope (ABI 6) does not do and older kernels do not do at all. */
    static const char *const signalling[] = {"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_send_signal"};
    for (size_t index = 0; notifies && index < sizeof signalling / sizeof signalling[0] && result == 0; index++) {
        int number = seccomp_syscall_resolve_name(signalling[index]);
        if (number == __NR_SCMP_ERROR) continue;
        result = -seccomp_rule_add(filter, SCMP_ACT_NOTIFY, number, 0);
    }
    if (result != 0) {
        seccomp_release(filter);
        return result;
    }
    *built = filter;
    return 0;
}

int modhost_sandbox_filter(int network, int exec, int audit, int watched, int *notify) {
    if ((audit || watched) && notify == NULL) return EINVAL;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    scmp_filter_ctx filter = NULL;
    int result = modhost_sandbox_build_filter(&filter, network, exec, audit, watched, notify != NULL);
    if (result != 0) return result;
    result = -seccomp_load(filter);
    if (result == 0 && notify != NULL) {
        *notify = seccomp_notify_fd(filter);
        if (*notify < 0) result = -*notify;
        if (result == 0) modhost_sandbox_wake_on_caller_cpu(*notify);
    }
    seccomp_release(filter);
    return result;
}
