/* CHostProcess: the host's child processes — close-on-exec pipes, messages with descriptors
 * over a socket, waiting for a child's end, which thread is the main one, and the process scope of a check (a subreaper; signals confined with Landlock
 * before any library runs). */
#include "child_pipe.h"
#include "child_wait.h"
#include "process_scope.h"
#include "socket_message.h"
#include "threads.h"
