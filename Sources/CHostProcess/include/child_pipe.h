#ifndef MODHOST_CHILD_PIPE_H
#define MODHOST_CHILD_PIPE_H

/* A pipe whose two ends are close-on-exec from the start (pipe2, O_CLOEXEC), so that no
 * program another thread starts meanwhile inherits them: a child reading to the end of a pipe
 * would wait for ever on a copy held elsewhere. 0, or -1 with errno set. Swift's Glibc module
 * does not import pipe2. */
int modhost_pipe_cloexec(int fds[2]);

#endif
