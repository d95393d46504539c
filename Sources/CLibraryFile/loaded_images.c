#define _GNU_SOURCE
#include "loaded_images.h"

#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct image_query {
    uintptr_t address;
    const char *name;
};

/* Whether a loadable segment of this image holds the address. */
static int holds(struct dl_phdr_info *image, size_t size, void *data) {
    (void)size;
    struct image_query *query = data;
    for (int index = 0; index < image->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &image->dlpi_phdr[index];
        if (segment->p_type != PT_LOAD) continue;
        uintptr_t start = image->dlpi_addr + segment->p_vaddr;
        if (query->address >= start && query->address < start + segment->p_memsz) {
            query->name = image->dlpi_name;
            return 1;
        }
    }
    return 0;
}

/* By the images' segments (dl_iterate_phdr), not dladdr: dladdr also looks for the nearest
 * symbol, a walk of the whole symbol table of a library as large as the kit, at every start. */
const char *modhost_image_path(const void *address) {
    struct image_query query = {(uintptr_t)address, NULL};
    if (dl_iterate_phdr(holds, &query) == 0 || query.name == NULL) return NULL;
    /* The main program's name is empty here; dladdr names it. */
    if (query.name[0] == '\0') {
        Dl_info info;
        if (dladdr(address, &info) == 0) return NULL;
        return info.dli_fname;
    }
    return query.name;
}

struct path_list {
    char *buffer;
    size_t size, used;
};

/* Appends the image's path and its NUL, when the linker opened it by one (the main program's
 * name is empty, the vDSO's has no slash; a relative one is the linker's current folder's). */
static int add_path(struct dl_phdr_info *image, size_t size, void *data) {
    (void)size;
    struct path_list *list = data;
    const char *name = image->dlpi_name;
    if (name == NULL || strchr(name, '/') == NULL) return 0;
    size_t length = strlen(name) + 1;
    if (list->used + length <= list->size) memcpy(list->buffer + list->used, name, length);
    list->used += length;
    return 0;
}

/* Asked of the dynamic linker, not read from /proc/self/maps: the kernel writes some four
 * hundred lines for that, a path for each, which cost a module's process a tenth of a
 * millisecond before its sandbox. */
size_t modhost_loaded_image_paths(char *buffer, size_t size) {
    struct path_list list = {buffer, size, 0};
    dl_iterate_phdr(add_path, &list);
    return list.used;
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
