/* CHostGuard: the crash guard, the ELF section reader, the library hash, the loaded images,
 * close-on-exec pipes and the process scope of a check (subreaper, signals confined), for the
 * host's targets. */
#include "child_pipe.h"
#include "elf_section.h"
#include "guard_outcome.h"
#include "host_guard.h"
#include "library_hash.h"
#include "loaded_images.h"
#include "process_scope.h"
