/* CHostGuard: the crash guard, the ELF section reader and the library hash, for HostCore. */
#include "elf_section.h"
#include "host_guard.h"
#include "library_hash.h"
