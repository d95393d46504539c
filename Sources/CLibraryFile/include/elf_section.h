#ifndef MODHOST_ELF_SECTION_H
#define MODHOST_ELF_SECTION_H

#include <stddef.h>
#include <stdint.h>

/* Outcomes of modhost_read_elf_section. */
enum {
    MODHOST_SECTION_FOUND = 0,
    MODHOST_SECTION_MISSING = 1,
    MODHOST_SECTION_TOO_LARGE = 2,
    MODHOST_SECTION_NOT_ELF = 3,
    MODHOST_SECTION_NOT_SHARED_OBJECT = 4,
    MODHOST_SECTION_MALFORMED = 5
};

/* A library's section headers and their names, read once (see modhost_elf_sections_open). */
struct modhost_elf_sections {
    int fd;
    uint64_t file_size;
    uint64_t count;
    void *sections;
    char *names;
    uint64_t names_size;
    /* The kit's sections (".modhost_*"), read together at the first one asked for when they
     * lie near each other: a descriptor's three sections cost one pread, not three. */
    unsigned char *kit;
    uint64_t kit_offset;
    uint64_t kit_size;
    int kit_tried;
};

/*
 * Reads the header, the section headers and their names of the 64-bit little-endian ELF
 * shared library open at `fd`, whose size (from the caller's one fstat) is `file_size`, with
 * pread, checking every offset and size against the file's before reading: no library (libelf
 * was one, with libz: a millisecond and 170 KiB of every start) and nothing the file says is
 * trusted. MODHOST_SECTION_FOUND when `index` is ready for modhost_elf_sections_read (close it
 * with modhost_elf_sections_close); otherwise `error` says what is wrong.
 */
int modhost_elf_sections_open(int fd, uint64_t file_size, struct modhost_elf_sections *index, char *error,
                              size_t error_size);

/* Copies the section named `name` into `buffer` (at most `capacity` bytes; `*size` is the
 * section's size), checked against the file's size first. */
int modhost_elf_sections_read(struct modhost_elf_sections *index, const char *name, unsigned char *buffer,
                              size_t capacity, size_t *size, char *error, size_t error_size);

void modhost_elf_sections_close(struct modhost_elf_sections *index);

/* One section of the library open at `fd`: open (after an fstat for the size), read, close. */
int modhost_read_elf_section(int fd, const char *name, unsigned char *buffer, size_t capacity, size_t *size, char *error,
                             size_t error_size);
#endif
