/* CHostGuard: the crash guard, the ELF section reader, the library hash and the loaded images, for the host's targets. */
#include "elf_section.h"
#include "host_guard.h"
#include "library_hash.h"
#include "loaded_images.h"
