#define _GNU_SOURCE
#include "child_pipe.h"

#include <fcntl.h>
#include <unistd.h>

int modhost_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
