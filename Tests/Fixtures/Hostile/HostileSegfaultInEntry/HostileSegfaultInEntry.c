/* A library whose entry point dereferences NULL: the host crashes when it asks for the descriptor. */
#include <stddef.h>
#include <stdint.h>
#include "../descriptor.h"

MODHOST_TEST_DESCRIPTOR("HostileSegfaultInEntry");

void *modhost_module_entry(uint32_t request) {
    volatile int *nowhere = NULL;
    *nowhere = (int)request;
    return NULL;
}
