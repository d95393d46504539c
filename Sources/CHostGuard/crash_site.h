#ifndef MODHOST_CRASH_SITE_H
#define MODHOST_CRASH_SITE_H

/*
 * Where a crash happened: the address ranges of the module libraries loaded so far, so that
 * the fatal-signal handler can tell whose code a backtrace passes through. Private to the
 * guard; the handler only reads (each entry is complete before the count that covers it is
 * published), and registration happens outside signal context.
 */

#include <stddef.h>

/* One module library's code, and the pieces of its "background" crash record. */
struct crash_site_module {
    const char *name;
    const char *record_head;
    const char *record_tail;
};

/* The module whose code holds `address`, or NULL. Async-signal-safe. */
const struct crash_site_module *crash_site_module_at(const void *address);

/* The first module whose code holds one of `frames` (innermost first), or NULL. */
const struct crash_site_module *crash_site_culprit(void *const *frames, int count);

/* Writes to `fd` one line per registered module library: its name and address range, so that
 * the raw addresses of a backtrace can be told apart. Async-signal-safe. */
void crash_site_write_legend(int fd);

/* See modhost_guard_add_module. */
int crash_site_add(void *handle, const char *name, const char *record_head, const char *record_tail);

#endif
