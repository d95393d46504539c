#ifndef MODHOST_CHILD_WAIT_H
#define MODHOST_CHILD_WAIT_H
#include <sys/types.h>

/* Waits at most `milliseconds` for child `pid` to end, woken the moment it does (a pidfd,
 * Linux 5.3 and later), without reaping it. 1 when it has ended, 0 when it has not by then,
 * -1 with errno set when this kernel cannot say (the caller then looks again and again). */
int modhost_wait_for_end(pid_t pid, int milliseconds);

/* A descriptor of process `pid` (a pidfd, close-on-exec) that polls readable once it has
 * ended; -1 with errno set when this kernel has none. */
int modhost_process_descriptor(pid_t pid);

/* How many processors this process may run on (its affinity mask, which a cpuset or
 * `taskset` narrows), at least 1. */
int modhost_usable_processors(void);

#endif
