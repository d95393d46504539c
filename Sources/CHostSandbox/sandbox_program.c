#define _GNU_SOURCE
#include "CHostSandbox.h"
#include "sandbox_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/types.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The watched filter as a BPF program made by the host, which a module's process loads as it
 * is: libseccomp's rules and its translation cost that process about 150 µs before its
 * module's library may open, while the host, waiting for it to start, has them to spare. */

/* Flags of seccomp(2) that older headers lack. */
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH (1UL << 4)
#endif
/* SECCOMP_IOCTL_NOTIF_SET_FLAGS and its one flag (Linux 6.6). */
#define MODHOST_SECCOMP_IOCTL_NOTIF_SET_FLAGS _IOW('!', 4, __u64)
#define MODHOST_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1ULL

/* What the program was made for, ahead of its instructions: a process loads it only for the
 * same grants it would build its own filter for. */
struct program_header {
    char magic[4]; /* "MHSF" */
    uint8_t network, exec, reserved[2];
};

/* A handed-over call wakes the host's notifier on the caller's CPU, and its answer the caller
 * on the notifier's: the caller waits anyway, so the pair takes turns on one CPU instead of
 * waking a halted one each way (a few microseconds against about two hundred on these VMs).
 * Older kernels refuse the flag and keep the usual wake-up. */
void modhost_sandbox_wake_on_caller_cpu(int notify) {
    (void)ioctl(notify, MODHOST_SECCOMP_IOCTL_NOTIF_SET_FLAGS, MODHOST_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
}

int modhost_sandbox_filter_program(int network, int exec, int *program) {
    scmp_filter_ctx filter = NULL;
    int result = modhost_sandbox_build_filter(&filter, network, exec, 0, 1, 1);
    if (result != 0) return result;
    int fd = memfd_create("modhost-sandbox-filter", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) result = errno;
    struct program_header header = {{'M', 'H', 'S', 'F'}, (uint8_t)(network != 0), (uint8_t)(exec != 0), {0, 0}};
    if (result == 0 && write(fd, &header, sizeof header) != (ssize_t)sizeof header) result = EIO;
    if (result == 0) result = -seccomp_export_bpf(filter, fd);
    /* Sealed: what the process loads is what was made here. */
    if (result == 0 && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) result = errno;
    seccomp_release(filter);
    if (result != 0) {
        if (fd >= 0) close(fd);
        return result;
    }
    *program = fd;
    return 0;
}

int modhost_sandbox_load_program(int program, int network, int exec, int *notify) {
    int seals = fcntl(program, F_GET_SEALS);
    if (seals < 0 || (seals & F_SEAL_WRITE) == 0) return EINVAL;
    off_t size = lseek(program, 0, SEEK_END);
    size_t length = size > (off_t)sizeof(struct program_header) ? (size_t)size - sizeof(struct program_header) : 0;
    if (length == 0 || length % sizeof(struct sock_filter) != 0 || length / sizeof(struct sock_filter) > BPF_MAXINSNS) return EINVAL;
    struct program_header header;
    if (pread(program, &header, sizeof header, 0) != (ssize_t)sizeof header) return EIO;
    if (memcmp(header.magic, "MHSF", 4) != 0 || header.network != (network != 0) || header.exec != (exec != 0)) return EINVAL;
    struct sock_filter instructions[BPF_MAXINSNS];
    if (pread(program, instructions, length, sizeof header) != (ssize_t)length) return EIO;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    struct sock_fprog loaded = {.len = (unsigned short)(length / sizeof(struct sock_filter)), .filter = instructions};
    /* As libseccomp loads the same filter: every thread, and a descriptor for its notices. */
    long listener = syscall(
        SYS_seccomp, SECCOMP_SET_MODE_FILTER,
        SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC_ESRCH, &loaded);
    if (listener < 0) return errno;
    *notify = (int)listener;
    modhost_sandbox_wake_on_caller_cpu(*notify);
    return 0;
}
