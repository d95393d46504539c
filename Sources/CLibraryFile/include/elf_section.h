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
    MODHOST_SECTION_MALFORMED = 5
};

/*
 * Copies the section named `name` of the 64-bit little-endian ELF shared library open at `fd`
 * into `buffer` (at most `capacity` bytes; `*size` is the section's size). It reads only the
 * header, the section headers, their names and that section, with pread, and checks every
 * offset and size against the file's before reading: no library (libelf was one, with libz:
 * a millisecond and 170 KiB of every start) and nothing the file says is trusted. `error`
 * says what is wrong for the failing outcomes.
 */
int modhost_read_elf_section(int fd, const char *name, unsigned char *buffer, size_t capacity, size_t *size, char *error,
                             size_t error_size);

#endif
