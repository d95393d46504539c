/* A library that breaks the modhost handshake on purpose, for the loader tests.
 * It declares the descriptor layout of modhost_abi.h itself, as a foreign library would. */
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t abi_version;
    const char *kit_fingerprint;
    const char *name;
    const char *version;
} descriptor;

static const descriptor the_descriptor = { 1, "00000000000000000000000000000000", NULL, "0.0.1" };

void *modhost_module_entry(uint32_t request) {
    return request == 1 ? (void *)&the_descriptor : NULL;
}
