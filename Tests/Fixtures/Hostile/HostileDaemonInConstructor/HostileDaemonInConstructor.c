/* A library whose constructor starts a daemon the usual way: it forks, the child calls setsid()
 * and forks again, and the grandchild, in a session of its own and no longer anyone's child,
 * sleeps for ten minutes holding the standard streams it inherited. Its pid is appended to the
 * file MODHOST_TEST_EVIDENCE names before the constructor returns, so that a test can look for
 * it in /proc. Only in a check's
 * probe (in_probe.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../descriptor.h"
#include "../in_probe.h"

MODHOST_TEST_DESCRIPTOR("HostileDaemonInConstructor");

__attribute__((constructor)) static void on_load(void) {
    if (!modhost_test_in_probe()) return;
    pid_t child = fork();
    if (child < 0) return;
    if (child > 0) {
        (void)waitpid(child, NULL, 0);
        return;
    }
    (void)setsid();
    pid_t daemon = fork();
    if (daemon != 0) {
        /* The middle child says who the daemon is before the constructor returns, then goes. */
        const char *path = getenv("MODHOST_TEST_EVIDENCE");
        if (path != NULL && daemon > 0) {
            int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (fd >= 0) {
                char line[32];
                int length = snprintf(line, sizeof line, "%d\n", (int)daemon);
                if (length > 0) (void)write(fd, line, (size_t)length);
                close(fd);
            }
        }
        _exit(0);
    }
    sleep(600);
    _exit(0);
}
