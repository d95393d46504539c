#define _GNU_SOURCE
#include "elf_section.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The machine this host runs on: a library built for another one cannot be loaded. */
#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#else
#error "modhost reads ELF sections on x86_64 and aarch64 only"
#endif

/* A section-name table larger than this is not one a compiler writes. */
#define MAXIMUM_NAMES_SIZE (1u << 20)

/* Reads exactly `count` bytes at `offset`; 0 on success. */
static int read_at(int fd, void *buffer, size_t count, uint64_t offset) {
    unsigned char *bytes = buffer;
    while (count > 0) {
        ssize_t got = pread(fd, bytes, count, (off_t)offset);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        bytes += got;
        count -= (size_t)got;
        offset += (uint64_t)got;
    }
    return 0;
}

/* Whether [offset, offset + size) lies inside a file of `file_size` bytes (no overflow). */
static int inside(uint64_t offset, uint64_t size, uint64_t file_size) {
    return offset <= file_size && size <= file_size - offset;
}

static int say(int outcome, char *error, size_t error_size, const char *text) {
    snprintf(error, error_size, "%s", text);
    return outcome;
}

/* How far before the section headers one read reaches for the names' table, which a linker
 * puts right before them at the file's end. */
#define NAMES_REACH 4096u

/* Reads the section headers at `headers_offset` and, in the same pread, what lies up to
 * NAMES_REACH bytes before them: 0 with `sections` filled and, when the names' table lies in
 * that reach, `*names` a NUL-terminated copy of it (else NULL: the caller reads it on its own
 * once it has checked the table's header); -1 when the headers cannot be read. One syscall
 * instead of two for every library of every start. */
static int read_headers_and_names(int fd, uint64_t headers_offset, uint64_t headers_size, uint64_t names_index,
                                  Elf64_Shdr *sections, char **names) {
    *names = NULL;
    /* A large table of headers (a hostile one) is read on its own: no second copy of it. */
    if (headers_size > 65536) return read_at(fd, sections, headers_size, headers_offset);
    uint64_t low = headers_offset > NAMES_REACH ? headers_offset - NAMES_REACH : 0;
    uint64_t span_size = headers_offset - low + headers_size;
    unsigned char *span = malloc(span_size);
    if (span == NULL) return read_at(fd, sections, headers_size, headers_offset);
    if (read_at(fd, span, span_size, low) != 0) {
        free(span);
        return -1;
    }
    memcpy(sections, span + (headers_offset - low), headers_size);
    Elf64_Shdr table = sections[names_index];
    /* Only a table wholly inside the part before the headers: the checks come after. */
    if (table.sh_size > 0 && table.sh_size <= MAXIMUM_NAMES_SIZE && table.sh_offset >= low &&
        table.sh_offset <= headers_offset && table.sh_size <= headers_offset - table.sh_offset) {
        char *copy = malloc(table.sh_size + 1);
        if (copy != NULL) {
            memcpy(copy, span + (table.sh_offset - low), table.sh_size);
            *names = copy;
        }
    }
    free(span);
    return 0;
}

int modhost_elf_sections_open(int fd, uint64_t file_size, struct modhost_elf_sections *index, char *error,
                              size_t error_size) {
    memset(index, 0, sizeof *index);
    index->fd = fd;
    index->file_size = file_size;
    if (error_size > 0) error[0] = 0;

    /* One read of the whole header (the identity first, for its own messages). */
    Elf64_Ehdr header;
    memset(&header, 0, sizeof header);
    size_t first_read = file_size < sizeof header ? EI_NIDENT : sizeof header;
    if (file_size < EI_NIDENT || read_at(fd, &header, first_read, 0) != 0 ||
        memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
        return say(MODHOST_SECTION_NOT_ELF, error, error_size, "is not an ELF file");
    if (header.e_ident[EI_CLASS] != ELFCLASS64)
        return say(MODHOST_SECTION_NOT_SHARED_OBJECT, error, error_size,
                   "is a 32-bit ELF file; this host loads 64-bit libraries");
    if (header.e_ident[EI_DATA] != ELFDATA2LSB)
        return say(MODHOST_SECTION_NOT_SHARED_OBJECT, error, error_size,
                   "is a big-endian ELF file; this host loads little-endian libraries");
    if (first_read < sizeof header)
        return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has a damaged ELF header (the file ends inside it)");
    if (header.e_type != ET_DYN)
        return say(MODHOST_SECTION_NOT_SHARED_OBJECT, error, error_size, "is an ELF file but not a shared library");
    if (header.e_machine != HOST_MACHINE)
        return say(MODHOST_SECTION_NOT_SHARED_OBJECT, error, error_size,
                   "is a shared library for another processor than this machine's");
    if (header.e_shoff == 0) return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has no section headers");
    if (header.e_shentsize != sizeof(Elf64_Shdr))
        return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has section headers of an unexpected size");

    /* Section 0 holds the count and the names' index when they do not fit the header; read
     * on its own only then. */
    uint64_t count = header.e_shnum;
    uint64_t names_index = header.e_shstrndx;
    if (count == 0 || names_index == SHN_XINDEX) {
        Elf64_Shdr first;
        if (!inside(header.e_shoff, sizeof first, file_size) || read_at(fd, &first, sizeof first, header.e_shoff) != 0)
            return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has section headers outside the file (truncated?)");
        if (count == 0) count = first.sh_size;
        if (names_index == SHN_XINDEX) names_index = first.sh_link;
    }
    if (count == 0 || count > file_size / sizeof(Elf64_Shdr) ||
        !inside(header.e_shoff, count * sizeof(Elf64_Shdr), file_size))
        return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has section headers outside the file (truncated?)");
    if (names_index == SHN_UNDEF || names_index >= count)
        return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has no section names");

    uint64_t headers_size = count * sizeof(Elf64_Shdr);
    Elf64_Shdr *sections = malloc(headers_size);
    if (sections == NULL) return say(MODHOST_SECTION_MALFORMED, error, error_size, "cannot be read (out of memory)");
    char *names = NULL;
    if (read_headers_and_names(fd, header.e_shoff, headers_size, names_index, sections, &names) != 0) {
        free(sections);
        return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has section headers outside the file (truncated?)");
    }
    Elf64_Shdr table = sections[names_index];
    if (table.sh_type != SHT_STRTAB || table.sh_size == 0 || table.sh_size > MAXIMUM_NAMES_SIZE ||
        !inside(table.sh_offset, table.sh_size, file_size)) {
        free(names);
        free(sections);
        return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has no section names");
    }
    if (names == NULL) {
        names = malloc(table.sh_size + 1);
        if (names == NULL || read_at(fd, names, table.sh_size, table.sh_offset) != 0) {
            free(names);
            free(sections);
            return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has no section names");
        }
    }
    names[table.sh_size] = 0; /* a name running off the table's end stops here */
    index->count = count;
    index->sections = sections;
    index->names = names;
    index->names_size = table.sh_size;
    return MODHOST_SECTION_FOUND;
}

/* The kit's sections together may span at most this (each is at most 8 KiB; four of them
 * with their alignment fit easily). */
#define KIT_SPAN_LIMIT (64u * 1024u)

/* Whether section `number` is one of the kit's, stored in the file and inside it. */
static int is_kit_section(const struct modhost_elf_sections *index, uint64_t number) {
    const Elf64_Shdr *section = (const Elf64_Shdr *)index->sections + number;
    return section->sh_name < index->names_size && strncmp(index->names + section->sh_name, ".modhost_", 9) == 0 &&
           section->sh_type == SHT_PROGBITS && inside(section->sh_offset, section->sh_size, index->file_size);
}

/* Reads the span of the kit's sections once, when it is small; otherwise each section is read
 * on its own (kit stays NULL). */
static void read_kit_span(struct modhost_elf_sections *index) {
    index->kit_tried = 1;
    uint64_t low = UINT64_MAX, high = 0;
    for (uint64_t number = 1; number < index->count; number++) {
        if (!is_kit_section(index, number)) continue;
        const Elf64_Shdr *section = (const Elf64_Shdr *)index->sections + number;
        if (section->sh_offset < low) low = section->sh_offset;
        if (section->sh_offset + section->sh_size > high) high = section->sh_offset + section->sh_size;
    }
    if (low >= high || high - low > KIT_SPAN_LIMIT) return;
    unsigned char *span = malloc(high - low);
    if (span == NULL) return;
    if (read_at(index->fd, span, high - low, low) != 0) {
        free(span);
        return;
    }
    index->kit = span;
    index->kit_offset = low;
    index->kit_size = high - low;
}

int modhost_elf_sections_read(struct modhost_elf_sections *index, const char *name, unsigned char *buffer,
                              size_t capacity, size_t *size, char *error, size_t error_size) {
    *size = 0;
    if (error_size > 0) error[0] = 0;
    const Elf64_Shdr *sections = index->sections;
    if (sections == NULL) return say(MODHOST_SECTION_NOT_ELF, error, error_size, "has no section headers");
    for (uint64_t number = 1; number < index->count; number++) {
        Elf64_Shdr section = sections[number];
        if (section.sh_name >= index->names_size || strcmp(index->names + section.sh_name, name) != 0) continue;
        *size = (size_t)section.sh_size;
        if (section.sh_size > capacity) return MODHOST_SECTION_TOO_LARGE;
        if (section.sh_type != SHT_PROGBITS)
            return say(MODHOST_SECTION_MALFORMED, error, error_size, "is not a section of data stored in the file");
        if (!inside(section.sh_offset, section.sh_size, index->file_size))
            return say(MODHOST_SECTION_MALFORMED, error, error_size, "lies outside the file (truncated?)");
        if (!index->kit_tried && is_kit_section(index, number)) read_kit_span(index);
        if (index->kit != NULL && section.sh_offset >= index->kit_offset &&
            section.sh_offset - index->kit_offset <= index->kit_size &&
            section.sh_size <= index->kit_size - (section.sh_offset - index->kit_offset)) {
            memcpy(buffer, index->kit + (section.sh_offset - index->kit_offset), section.sh_size);
            return MODHOST_SECTION_FOUND;
        }
        if (read_at(index->fd, buffer, section.sh_size, section.sh_offset) != 0)
            return say(MODHOST_SECTION_MALFORMED, error, error_size, "cannot be read");
        return MODHOST_SECTION_FOUND;
    }
    return MODHOST_SECTION_MISSING;
}

void modhost_elf_sections_close(struct modhost_elf_sections *index) {
    free(index->kit);
    free(index->names);
    free(index->sections);
    memset(index, 0, sizeof *index);
}

int modhost_read_elf_section(int fd, const char *name, unsigned char *buffer, size_t capacity, size_t *size, char *error,
                             size_t error_size) {
    *size = 0;
    struct stat status;
    if (fstat(fd, &status) != 0) return say(MODHOST_SECTION_NOT_ELF, error, error_size, "cannot be examined");
    struct modhost_elf_sections index;
    int outcome = modhost_elf_sections_open(fd, (uint64_t)status.st_size, &index, error, error_size);
    if (outcome != MODHOST_SECTION_FOUND) return outcome;
    outcome = modhost_elf_sections_read(&index, name, buffer, capacity, size, error, error_size);
    modhost_elf_sections_close(&index);
    return outcome;
}
