/* A library whose constructor calls abort(): it kills any process that opens it. */
#include <stdlib.h>
#include "../descriptor.h"

MODHOST_TEST_DESCRIPTOR("HostileAbortInConstructor");

__attribute__((constructor)) static void on_load(void) { abort(); }
