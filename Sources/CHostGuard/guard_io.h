#ifndef MODHOST_GUARD_IO_H
#define MODHOST_GUARD_IO_H

/* What host_guard.c asks of guard_io.c on its signal and exit paths; not part of the
 * module's interface. */

/* Ends the process group of the child the host runs on its own (the app's check), if any. */
__attribute__((visibility("hidden"))) void guard_end_child_group(void);

/* Puts back each of descriptors 0-2 that is closed or another file than at install; a bit
 * per descriptor put back. */
__attribute__((visibility("hidden"))) int guard_restore_standard_descriptors(void);

/* Keeps the terminal's settings, to restore on every way out. */
__attribute__((visibility("hidden"))) void guard_save_terminal(void);

#endif
