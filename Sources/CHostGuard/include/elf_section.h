#ifndef MODHOST_ELF_SECTION_H
#define MODHOST_ELF_SECTION_H

#include <stddef.h>

/* Outcomes of modhost_read_elf_section. */
enum {
    MODHOST_SECTION_FOUND = 0,
    MODHOST_SECTION_MISSING = 1,
    MODHOST_SECTION_TOO_LARGE = 2,
    MODHOST_SECTION_NOT_ELF = 3,
    MODHOST_SECTION_NOT_SHARED_OBJECT = 4,
    MODHOST_SECTION_MALFORMED = 5,
    MODHOST_SECTION_NO_LIBELF = 6
};

/*
 * Copies the section named `name` of the ELF file open at `fd` into `buffer` (at most
 * `capacity` bytes; `*size` is the section's size), using the system's libelf. libelf is
 * opened with dlopen(RTLD_LOCAL) on first use, so its symbols never join the scope that module
 * libraries are linked against. `error` receives libelf's message for the failing outcomes.
 */
int modhost_read_elf_section(int fd, const char *name, unsigned char *buffer, size_t capacity, size_t *size, char *error,
                             size_t error_size);

#endif
