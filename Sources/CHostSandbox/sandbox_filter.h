#ifndef MODHOST_SANDBOX_FILTER_H
#define MODHOST_SANDBOX_FILTER_H

#include <seccomp.h>

/* The filter modhost_sandbox_filter loads, built (not loaded) into `*built`, which the caller
 * releases; `notifies`: whether its refusals are handed over rather than answered EPERM. */
int modhost_sandbox_build_filter(scmp_filter_ctx *built, int network, int exec, int audit, int watched, int notifies);

/* Asks the kernel to wake the notifier on the caller's CPU (see sandbox_program.c). */
void modhost_sandbox_wake_on_caller_cpu(int notify);

#endif
