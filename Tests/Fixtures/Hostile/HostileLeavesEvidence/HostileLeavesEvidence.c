/* A library whose constructor leaves evidence that it ran: it appends its uid to the file
 * that MODHOST_TEST_EVIDENCE names. The trust tests offer it where the host must never run it
 * (a swapped symlink, a descriptor naming another module) and check the file stays absent. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../descriptor.h"

MODHOST_TEST_DESCRIPTOR("HostileLeavesEvidence");

__attribute__((constructor)) static void on_load(void) {
    const char *path = getenv("MODHOST_TEST_EVIDENCE");
    if (path == NULL) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    char line[32];
    int length = snprintf(line, sizeof line, "uid %d\n", (int)geteuid());
    if (length > 0) (void)write(fd, line, (size_t)length);
    close(fd);
}
