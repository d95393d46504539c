#ifndef MODHOST_GUARD_MARKER_H
#define MODHOST_GUARD_MARKER_H

#include <stddef.h>

#include "crash_site.h"

/* What host_guard.c asks of guard_marker.c; not part of the module's interface. Every one is
 * async-signal-safe. */
#define GUARD_HIDDEN __attribute__((visibility("hidden")))

/* The marker's whole text: `text`, padded with spaces, in one store (or one pwrite). */
/* 1 when the marker holds `text` (padded) afterwards: a store into its mapping, or a whole pwrite. */
GUARD_HIDDEN int guard_write_marker(const char *text, size_t length);
/* The prepared record plus `outcome` to the marker (and the report, for an end). */
GUARD_HIDDEN int guard_write_outcome(const char *outcome);
/* The marker of a crash in `module`'s code outside a call the host made to it. */
GUARD_HIDDEN int guard_write_background_outcome(const struct crash_site_module *module, const char *outcome);
/* The record of the call being entered (its fields before the outcome). */
GUARD_HIDDEN void guard_set_record(const char *module, const char *phase, const char *tail);
/* The name of a signal the guard reports ("SIGSEGV"). */
GUARD_HIDDEN const char *guard_signal_name(int signal);
/* Writes the crashing thread's backtrace to the prepared file (0600); 1 when it did. */
GUARD_HIDDEN int guard_write_backtrace(int signal, void *const *frames, int count);
/* Whether there is a marker to write to. */
GUARD_HIDDEN int guard_has_marker(void);
/* Where a crash's backtrace goes; empty for nowhere. */
GUARD_HIDDEN const char *guard_backtrace_path(void);

#endif
