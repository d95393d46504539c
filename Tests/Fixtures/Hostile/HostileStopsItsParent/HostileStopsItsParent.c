/* A library whose constructor sends SIGSTOP to the process that started the one loading it:
 * without a guard, 'modhost check' would stay stopped (state T) until someone continues it. Only
 * in a check's probe (in_probe.h). */
#include <signal.h>
#include <unistd.h>
#include "../descriptor.h"
#include "../in_probe.h"

MODHOST_TEST_DESCRIPTOR("HostileStopsItsParent");

__attribute__((constructor)) static void on_load(void) {
    if (modhost_test_in_probe()) (void)kill(getppid(), SIGSTOP);
}
