#define _GNU_SOURCE
#include "crash_site.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAXIMUM_MODULES = 4096 };

struct entry {
    uintptr_t start, end;
    struct crash_site_module module;
};

/* Filled in order; an entry is read only once `count` covers it (release/acquire). */
static struct entry entries[MAXIMUM_MODULES];
static atomic_int count;
static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;

const struct crash_site_module *crash_site_module_at(const void *address) {
    uintptr_t value = (uintptr_t)address;
    int known = atomic_load_explicit(&count, memory_order_acquire);
    for (int index = 0; index < known; index++) {
        if (value >= entries[index].start && value < entries[index].end) return &entries[index].module;
    }
    return NULL;
}

const struct crash_site_module *crash_site_culprit(void *const *frames, int frame_count) {
    for (int index = 0; index < frame_count; index++) {
        const struct crash_site_module *module = crash_site_module_at(frames[index]);
        if (module != NULL) return module;
    }
    return NULL;
}

static void write_text(int fd, const char *text) {
    if (text != NULL) (void)write(fd, text, strlen(text));
}

static void write_hex(int fd, uintptr_t value) {
    char digits[2 + 2 * sizeof value + 1];
    size_t position = sizeof digits - 1;
    digits[position] = '\0';
    do {
        digits[--position] = "0123456789abcdef"[value & 0xf];
        value >>= 4;
    } while (value != 0 && position > 2);
    digits[--position] = 'x';
    digits[--position] = '0';
    write_text(fd, digits + position);
}

void crash_site_write_legend(int fd) {
    int known = atomic_load_explicit(&count, memory_order_acquire);
    if (known > 0) write_text(fd, "module libraries (the linker names them /proc/self/fd/N):\n");
    for (int index = 0; index < known; index++) {
        write_text(fd, "  ");
        write_hex(fd, entries[index].start);
        write_text(fd, "-");
        write_hex(fd, entries[index].end);
        write_text(fd, " module '");
        write_text(fd, entries[index].module.name);
        write_text(fd, "'\n");
    }
}

struct range_query {
    uintptr_t base;
    const char *name;
    uintptr_t start, end;
    int found;
};

/* The span of the loaded segments of the object at `base` named `name`. */
static int find_range(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct range_query *query = data;
    if (info->dlpi_addr != query->base || info->dlpi_name == NULL || strcmp(info->dlpi_name, query->name) != 0) return 0;
    uintptr_t low = UINTPTR_MAX, high = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
        if (segment->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (start < low) low = start;
        if (start + segment->p_memsz > high) high = start + segment->p_memsz;
    }
    if (low >= high) return 0;
    query->start = low;
    query->end = high;
    query->found = 1;
    return 1;
}

int crash_site_add(void *handle, const char *name, const char *record_head, const char *record_tail) {
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL || map->l_name == NULL) return -1;
    struct range_query query = {map->l_addr, map->l_name, 0, 0, 0};
    dl_iterate_phdr(find_range, &query);
    if (!query.found) return -1;
    pthread_mutex_lock(&writer);
    int index = atomic_load_explicit(&count, memory_order_relaxed);
    if (index >= MAXIMUM_MODULES) {
        pthread_mutex_unlock(&writer);
        return -1;
    }
    entries[index].start = query.start;
    entries[index].end = query.end;
    entries[index].module.name = strdup(name);
    entries[index].module.record_head = strdup(record_head);
    entries[index].module.record_tail = strdup(record_tail);
    atomic_store_explicit(&count, index + 1, memory_order_release);
    pthread_mutex_unlock(&writer);
    return 0;
}
