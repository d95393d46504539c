/* A library whose constructor calls _exit(3): the process ends without running any handler. */
#include <unistd.h>
#include "../descriptor.h"

MODHOST_TEST_DESCRIPTOR("HostileQuietExitInConstructor");

__attribute__((constructor)) static void on_load(void) { _exit(3); }
