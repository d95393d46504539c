/* A library whose constructor calls exit(0): it ends any process that opens it, "successfully". */
#include <stdlib.h>
#include "../descriptor.h"

MODHOST_TEST_DESCRIPTOR("HostileExitInConstructor");

__attribute__((constructor)) static void on_load(void) { exit(0); }
