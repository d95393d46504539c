/* Breaks the modhost handshake on purpose, for the loader tests: its entry point answers an
 * SDK version other than the one its descriptor section records. It uses the real header so
 * that it keeps the real layout. */
#include <stddef.h>
#include "../../../../Sources/ModuleKit/Sources/CModuleABI/include/modhost_abi.h"
#include "../../Hostile/descriptor.h"

/* A valid descriptor (armed by the tests), so the host gets past the file to the entry point. */
MODHOST_TEST_DESCRIPTOR("BrokenForeignSDK");

static const modhost_descriptor the_descriptor = { MODHOST_ABI_VERSION, "9.9.9", "BrokenForeignSDK", "0.0.1" };

void *modhost_module_entry(uint32_t request) {
    return request == MODHOST_REQUEST_DESCRIBE ? (void *)&the_descriptor : NULL;
}
