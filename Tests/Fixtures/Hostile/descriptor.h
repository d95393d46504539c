/* A module descriptor section for the hostile C fixtures (layout in modhost_abi.h). The kit
 * fingerprint is a placeholder of 32 'f's: tests copy the library and write the host's real
 * fingerprint over it, so the host gets past the file checks and really runs the library. */
#include <stdint.h>

#define MODHOST_TEST_PAYLOAD(NAME)                                                                                     \
    "abi=1\nkit=ffffffffffffffffffffffffffffffff\nname=" NAME "\nversion=0.0.1\nprovides=\nrequires=\nuses=\n"

#define MODHOST_TEST_DESCRIPTOR(NAME)                                                                                  \
    __attribute__((section(".modhost_descriptor"), used)) static const struct {                                       \
        char magic[4];                                                                                                 \
        uint16_t format;                                                                                               \
        uint16_t zero;                                                                                                 \
        uint32_t length;                                                                                               \
        char payload[sizeof(MODHOST_TEST_PAYLOAD(NAME)) - 1];                                                          \
    } __attribute__((packed)) modhost_test_descriptor = {                                                              \
        {'M', 'H', 'D', 'S'}, 1, 0, sizeof(MODHOST_TEST_PAYLOAD(NAME)) - 1, MODHOST_TEST_PAYLOAD(NAME)}
