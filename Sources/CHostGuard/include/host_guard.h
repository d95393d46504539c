#ifndef MODHOST_HOST_GUARD_H
#define MODHOST_HOST_GUARD_H

/*
 * The host's guard around module code, in C because its handlers must be async-signal-safe.
 *
 * Before the host calls into a module it says so (modhost_guard_enter): the lines to print and
 * the marker record to write are prepared then, so that a fatal signal, an exit() or a hang
 * only has to copy prepared bytes (write, pwrite, tcsetattr and _exit are async-signal-safe).
 */

#include <stdint.h>

/* Installs the handlers (fatal signals on an alternate stack, SIGINT/SIGTERM, on_exit), saves
 * the terminal's settings when standard input is a TTY, and starts the watchdog thread.
 * `wake_fd` is written one byte when SIGINT or SIGTERM arrives the first time. Call once. */
void modhost_guard_install(int wake_fd);

/* The marker file (open, O_RDWR) and its path, or -1/NULL for none (probes, bisect tries). */
void modhost_guard_set_marker(int fd, const char *path);

/*
 * The host is about to run module code. `crash_line` is printed as is on a fatal signal,
 * followed by " (SIGNAME)" and `crash_suffix`; `exit_line` (its one '%' replaced by the status)
 * and `hang_line`, each followed by `crash_suffix`, for an exit() and for a call that overruns
 * `timeout_ms` (0: no limit).
 * `record` is the marker's content; the outcome is appended to it.
 */
void modhost_guard_enter(const char *crash_line, const char *crash_suffix, const char *exit_line, const char *hang_line,
                         const char *record, int64_t timeout_ms);

/* The module call returned: the marker goes back to idle. */
void modhost_guard_leave(void);

/* The module's code is waiting for a person (a read from the terminal): until resume, a kill or
 * a crash is not the module's doing. The prepared lines are kept; resume restores them. */
void modhost_guard_suspend(void);
void modhost_guard_resume(void);

/* The host itself is ending the process: exit() is no module's doing from now on. */
void modhost_guard_host_exiting(void);

/* Puts the terminal back as it was at install (echo on); safe at any time. */
void modhost_guard_restore_terminal(void);

/* The signal that asked the process to end (SIGINT/SIGTERM), or 0. */
int modhost_guard_pending_signal(void);

/* Ends the process now with `status`: terminal restored, marker removed, no atexit work. */
void modhost_guard_exit_now(int status) __attribute__((noreturn));

/* Flushes stdio's standard output; 0, or the errno of a write that failed (ENOSPC, EPIPE…). */
int modhost_flush_stdout(void);

#endif
