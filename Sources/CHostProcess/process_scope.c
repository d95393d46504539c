#define _GNU_SOURCE
#include "process_scope.h"

#include <errno.h>
#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Debian 12's kernel headers (6.1) predate the scopes: the kernel's own numbers and layout. */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif
#define MODHOST_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define MODHOST_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define MODHOST_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

struct modhost_landlock_ruleset_attr {
    __u64 handled_access_fs;
    __u64 handled_access_net;
    __u64 scoped;
};

int modhost_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, MODHOST_LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

int modhost_scope_signals(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, MODHOST_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 0) return errno;
    if (abi < 6) return ENOTSUP;
    struct modhost_landlock_ruleset_attr attributes = {
        .handled_access_fs = 0,
        .handled_access_net = 0,
        .scoped = MODHOST_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | MODHOST_LANDLOCK_SCOPE_SIGNAL,
    };
    long ruleset = syscall(__NR_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) return errno;
    int result = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(__NR_landlock_restrict_self, (int)ruleset, 0) != 0) result = errno;
    close((int)ruleset);
    return result;
}

int modhost_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno; }

int modhost_not_dumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : errno; }
