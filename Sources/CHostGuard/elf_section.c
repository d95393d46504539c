#define _GNU_SOURCE
#include "elf_section.h"

#include <dlfcn.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* libelf's functions, taken from a private dlopen handle (prototypes from Debian's libelf-dev). */
static struct {
    __typeof__(&elf_version) version;
    __typeof__(&elf_begin) begin;
    __typeof__(&elf_end) end;
    __typeof__(&elf_kind) kind;
    __typeof__(&gelf_getehdr) getehdr;
    __typeof__(&elf_getshdrstrndx) getshdrstrndx;
    __typeof__(&elf_nextscn) nextscn;
    __typeof__(&gelf_getshdr) getshdr;
    __typeof__(&elf_strptr) strptr;
    __typeof__(&elf_getdata) getdata;
    __typeof__(&elf_errmsg) errmsg;
    char problem[256];
} libelf;
static pthread_once_t libelf_once = PTHREAD_ONCE_INIT;

static void open_libelf(void) {
    void *library = dlopen("libelf.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(libelf.problem, sizeof libelf.problem, "libelf cannot be opened (install Debian's libelf1): %s", dlerror());
        return;
    }
#define LOAD(field, symbol) libelf.field = (__typeof__(libelf.field))dlsym(library, symbol)
    LOAD(version, "elf_version");
    LOAD(begin, "elf_begin");
    LOAD(end, "elf_end");
    LOAD(kind, "elf_kind");
    LOAD(getehdr, "gelf_getehdr");
    LOAD(getshdrstrndx, "elf_getshdrstrndx");
    LOAD(nextscn, "elf_nextscn");
    LOAD(getshdr, "gelf_getshdr");
    LOAD(strptr, "elf_strptr");
    LOAD(getdata, "elf_getdata");
    LOAD(errmsg, "elf_errmsg");
#undef LOAD
    if (!libelf.version || !libelf.begin || !libelf.end || !libelf.kind || !libelf.getehdr || !libelf.getshdrstrndx ||
        !libelf.nextscn || !libelf.getshdr || !libelf.strptr || !libelf.getdata || !libelf.errmsg) {
        snprintf(libelf.problem, sizeof libelf.problem, "libelf lacks the functions the host reads sections with");
        libelf.begin = NULL;
        return;
    }
    if (libelf.version(EV_CURRENT) == EV_NONE) {
        snprintf(libelf.problem, sizeof libelf.problem, "libelf does not speak the current ELF version");
        libelf.begin = NULL;
    }
}

static int fail(int outcome, char *error, size_t error_size, const char *what) {
    const char *message = libelf.errmsg ? libelf.errmsg(-1) : NULL;
    snprintf(error, error_size, "%s%s%s", what, message ? ": " : "", message ? message : "");
    return outcome;
}

int modhost_read_elf_section(int fd, const char *name, unsigned char *buffer, size_t capacity, size_t *size, char *error,
                             size_t error_size) {
    pthread_once(&libelf_once, open_libelf);
    *size = 0;
    if (libelf.begin == NULL) {
        snprintf(error, error_size, "%s", libelf.problem);
        return MODHOST_SECTION_NO_LIBELF;
    }
    struct stat status;
    if (fstat(fd, &status) != 0) return fail(MODHOST_SECTION_NOT_ELF, error, error_size, "cannot be examined");
    Elf *elf = libelf.begin(fd, ELF_C_READ, NULL);
    if (elf == NULL) return fail(MODHOST_SECTION_NOT_ELF, error, error_size, "cannot be read as ELF");
    int outcome = MODHOST_SECTION_MISSING;
    GElf_Ehdr header;
    size_t names = 0;
    if (libelf.kind(elf) != ELF_K_ELF) {
        outcome = MODHOST_SECTION_NOT_ELF;
        snprintf(error, error_size, "is not an ELF file");
    } else if (libelf.getehdr(elf, &header) == NULL) {
        outcome = fail(MODHOST_SECTION_NOT_ELF, error, error_size, "has a damaged ELF header");
    } else if (header.e_type != ET_DYN) {
        outcome = MODHOST_SECTION_NOT_SHARED_OBJECT;
        snprintf(error, error_size, "is an ELF file but not a shared library");
    } else if (libelf.getshdrstrndx(elf, &names) != 0) {
        outcome = fail(MODHOST_SECTION_NOT_ELF, error, error_size, "has no section names");
    } else {
        for (Elf_Scn *section = libelf.nextscn(elf, NULL); section != NULL; section = libelf.nextscn(elf, section)) {
            GElf_Shdr section_header;
            if (libelf.getshdr(section, &section_header) == NULL) continue;
            const char *section_name = libelf.strptr(elf, names, section_header.sh_name);
            if (section_name == NULL || strcmp(section_name, name) != 0) continue;
            *size = (size_t)section_header.sh_size;
            if (section_header.sh_size > capacity) {
                outcome = MODHOST_SECTION_TOO_LARGE;
            } else if (section_header.sh_type != SHT_PROGBITS || section_header.sh_offset > (GElf_Off)status.st_size ||
                       section_header.sh_size > (GElf_Xword)status.st_size - section_header.sh_offset) {
                outcome = MODHOST_SECTION_MALFORMED;
                snprintf(error, error_size, "lies outside the file (truncated?)");
            } else {
                Elf_Data *data = libelf.getdata(section, NULL);
                if (data == NULL || data->d_buf == NULL || data->d_size != section_header.sh_size) {
                    outcome = fail(MODHOST_SECTION_MALFORMED, error, error_size, "cannot be read");
                } else {
                    memcpy(buffer, data->d_buf, data->d_size);
                    outcome = MODHOST_SECTION_FOUND;
                }
            }
            break;
        }
    }
    libelf.end(elf);
    return outcome;
}
