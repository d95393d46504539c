/* CHostProcess: the host's child processes — close-on-exec pipes, and the process scope of a
 * check (a subreaper; signals confined with Landlock before any library runs). */
#include "child_pipe.h"
#include "process_scope.h"
