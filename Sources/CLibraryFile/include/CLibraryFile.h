/* CLibraryFile: what the host reads from a library file without running it — a bounded
 * reader of its ELF sections, its SHA-256 (the system's libcrypto, opened privately on first
 * use), and which loaded image an address belongs to. */
#include "elf_section.h"
#include "library_hash.h"
#include "loaded_images.h"
