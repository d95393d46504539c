#define _GNU_SOURCE
#include "child_wait.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

int modhost_wait_for_end(pid_t pid, int milliseconds) {
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd < 0) return -1;
    struct pollfd ended = {.fd = fd, .events = POLLIN};
    int ready;
    do ready = poll(&ended, 1, milliseconds);
    while (ready < 0 && errno == EINTR);
    int saved = errno;
    close(fd);
    errno = saved;
    return ready < 0 ? -1 : ready > 0;
#else
    (void)pid;
    (void)milliseconds;
    errno = ENOSYS;
    return -1;
#endif
}

int modhost_process_descriptor(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int modhost_usable_processors(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int count = CPU_COUNT(&set);
    return count > 0 ? count : 1;
}
