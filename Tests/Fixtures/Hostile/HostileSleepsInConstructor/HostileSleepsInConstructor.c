/* A library whose constructor sleeps for a minute: opening it hangs. */
#include <unistd.h>
#include "../descriptor.h"

MODHOST_TEST_DESCRIPTOR("HostileSleepsInConstructor");

__attribute__((constructor)) static void on_load(void) { sleep(60); }
