#define _GNU_SOURCE
#include "loaded_images.h"

#include <dlfcn.h>
#include <stddef.h>

const char *modhost_image_path(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return NULL;
    return info.dli_fname;
}
