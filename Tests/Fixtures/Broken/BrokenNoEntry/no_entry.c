#include "../../Hostile/descriptor.h"

/* A valid descriptor (armed by the tests), so the host gets past the file to the entry point. */
MODHOST_TEST_DESCRIPTOR("BrokenNoEntry");
/* A library that breaks the modhost handshake on purpose: it exports no entry symbol. */
int not_the_entry_point(void) { return 42; }
