/* Whether this process is a check's probe ('modhost … __probe …'): the fixtures that reach
 * outside their process act only there, as a library that hides from everything but a check
 * would. Loaded by a run itself (the app, a command), where no check stands between it and the
 * processes around, they do nothing, so that a test's own runner is never stopped. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int modhost_test_in_probe(void) {
    char buffer[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t count = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    for (ssize_t start = 0; start < count;) {
        if (strcmp(buffer + start, "__probe") == 0) return 1;
        start += (ssize_t)strlen(buffer + start) + 1;
    }
    return 0;
}
