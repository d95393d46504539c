/* A module descriptor section for the hostile C fixtures (layout in modhost_abi.h). The SDK
 * version (0.0.0) and the compiler (90 'f's) are placeholders: tests copy the library and
 * write the host's real ones over them, padding the version with zeros to keep the length
 * (see TestSupport's HostileLibrary), so the host gets past the file checks and really runs
 * the library. */
#include <stdint.h>

#define MODHOST_TEST_COMPILER_PLACEHOLDER                                                                              \
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"

#define MODHOST_TEST_PAYLOAD(NAME)                                                                                     \
    "abi=2\nsdk=0.0.0\ncompiler=" MODHOST_TEST_COMPILER_PLACEHOLDER "\nname=" NAME                                     \
    "\nversion=0.0.1\nprovides=\nrequires=\nuses=\ncontracts=\n"

#define MODHOST_TEST_DESCRIPTOR(NAME)                                                                                  \
    __attribute__((section(".modhost_descriptor"), used)) static const struct {                                       \
        char magic[4];                                                                                                 \
        uint16_t format;                                                                                               \
        uint16_t zero;                                                                                                 \
        uint32_t length;                                                                                               \
        char payload[sizeof(MODHOST_TEST_PAYLOAD(NAME)) - 1];                                                          \
    } __attribute__((packed)) modhost_test_descriptor = {                                                              \
        {'M', 'H', 'D', 'S'}, 4, 0, sizeof(MODHOST_TEST_PAYLOAD(NAME)) - 1, MODHOST_TEST_PAYLOAD(NAME)}
