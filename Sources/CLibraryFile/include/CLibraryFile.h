/* CLibraryFile: what the host reads from a library file without running it — a bounded
 * reader of its ELF sections, and which loaded image an address belongs to. (Its SHA-256 is
 * the kit's, through libcrypto.) */
#include "elf_section.h"
#include "loaded_images.h"
