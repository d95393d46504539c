#define _GNU_SOURCE
#include "loaded_images.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

const char *modhost_image_path(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return NULL;
    return info.dli_fname;
}

/* The Swift runtime's demangler (swift/Demangling/Demangle.h: swift_demangle), looked up in
 * the process rather than linked, since its header is not installed with the toolchain. */
typedef char *swift_demangle_fn(const char *mangled, size_t length, char *output, size_t *size, uint32_t flags);

int modhost_demangle(const char *mangled, char *output, size_t size) {
    if (mangled == NULL || output == NULL || size == 0) return 0;
    swift_demangle_fn *demangle = (swift_demangle_fn *)dlsym(RTLD_DEFAULT, "swift_demangle");
    if (demangle == NULL) return 0;
    size_t length = 0;
    while (mangled[length] != '\0' && length < 4096) length++;
    size_t written = size;
    return demangle(mangled, length, output, &written, 0) != NULL;
}
