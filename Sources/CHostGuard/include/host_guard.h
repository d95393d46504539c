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

/* Installs the handlers and starts the watchdog thread. Call once.
 * - Fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP), on an alternate stack:
 *   the crash is named, recorded, its backtrace written, and the process ends by that signal
 *   (never through the Swift runtime's backtracer, which waits for input on a terminal).
 * - SIGINT, SIGTERM, SIGHUP and SIGQUIT end the host: `wake_fd` is written one byte the first
 *   time (a SIGINT or SIGHUP ignored on entry, as by `nohup` or a script's `&`, stays ignored).
 * - SIGPIPE, SIGUSR1 and SIGUSR2 are caught and do nothing: a closed pipe is reported by the
 *   write (EPIPE); programs a module starts get them back at their default.
 * - on_exit names an exit() inside module code.
 * It also saves the terminal's settings when standard input is a TTY, opens /dev/null on any
 * of the descriptors 0-2 that is closed, and keeps copies of them to restore. */
void modhost_guard_install(int wake_fd);

/* What a crash in a module's own code outside a call ends, as its line names it (default
 * "the host"; "its own process" in a module's process of its own). */
void modhost_guard_set_victim(const char *victim);

/* Opens /dev/null on each of descriptors 0-2 that is closed and keeps copies of them (the first
 * call only): call it before opening anything, so that no pipe or file takes their numbers. */
void modhost_guard_keep_standard_descriptors(void);
/* Keeps descriptors 0-2 as they are now as the ones to put back after a module call: a
 * module's own process, its standard streams moved off the terminal, and on the terminal the
 * host lends it, and off it again. */
void modhost_guard_keep_standard_descriptors_as_they_are(void);
/* Saves the terminal's settings from standard input now, when it is a terminal (the guard
 * puts them back when a module call ends the process): a module's own process, before its
 * standard input leaves the terminal. */
void modhost_guard_save_terminal(void);
/* Standard output written at each line break from now on (a pipe's default is a full buffer,
 * written who knows when, or lost with a kill). */
void modhost_line_buffer_stdout(void);

/* The marker file (open, O_RDWR) and its path, or -1/NULL for none (probes, bisect tries);
 * `backtrace_path` is where a crash's backtrace is written (mode 0600), or NULL. A marker
 * given no path is a slot kept from run to run: ending leaves it idle, never removes it. */
void modhost_guard_set_marker(int fd, const char *path, const char *backtrace_path);

/* The host ends as itself: leaves the marker idle, and removes it when it has a path. */
void modhost_guard_remove_marker(void);

/* Also reports how a module call ended on `fd` (-1: nowhere), once per process, as one line:
 * a newline, `prefix`, then the marker's outcome ("signal SIGSEGV", "exit 3", "hang") and a
 * newline. For a parent that reads this process's results from a pipe (check's probe), so it
 * never has to read the English lines written to standard error. */
void modhost_guard_set_report(int fd, const char *prefix);

/* Registers the code of a loaded module library (its dlopen handle): a fatal signal whose
 * backtrace passes through that code is the module's, whatever the host was doing. A crash in
 * its code outside a call the host made to it is recorded with phase "background", as
 * `record_head` + the time in seconds + `record_tail` + the outcome. 0, or -1 when the
 * library's mapping is not found or the table is full. */
int modhost_guard_add_module(void *handle, const char *name, const char *record_head, const char *record_tail);

/*
 * The host is about to run module code: `module`'s, in `phase`. What is said, should it crash,
 * call exit() or overrun `timeout_ms` (0: no limit; `seconds`, the same in words, for its line),
 * is put together from these when it happens, each line followed by `suffix`. The marker's
 * content is the module, the phase, the time now in seconds, then `record_tail`; the outcome
 * is appended to it.
 */
void modhost_guard_enter(const char *module, const char *phase, const char *seconds, const char *suffix, const char *record_tail,
                         int64_t timeout_ms);

/* The module call returned: the marker goes back to idle. Any of the descriptors 0-2 that the
 * call closed or replaced is put back; the bits of those fds (1 << fd) are returned. */
int modhost_guard_leave(void);

/* The module's code is waiting for a person (a read from the terminal): until resume, a kill or
 * a crash is not the module's doing. The prepared lines are kept; resume restores them. */
void modhost_guard_suspend(void);
void modhost_guard_resume(void);

/* The host itself is ending the process: exit() is no module's doing from now on. */
void modhost_guard_host_exiting(void);

/* Puts the terminal back as it was at install (echo on), and the screen (see below); safe at
   any time, from a signal handler too. */
void modhost_guard_restore_terminal(void);

/* What restoring the terminal writes first while the app runs full screen (leave the
   alternate screen, show the cursor); NULL when it no longer does. */
void modhost_guard_set_screen_reset(const char *sequence);

/* A process group the host started (the app's check, with its probes), killed on every path
 * that ends the host without coming back: a crash, a signal, the watchdog, an exit() in module
 * code. 0: none. */
void modhost_guard_set_child_group(int group);

/* That group, or 0: the signal path asks its leader to end first, so that it cleans up. */
int modhost_guard_child_group(void);

/* The signal that asked the process to end (SIGINT/SIGTERM), or 0. */
int modhost_guard_pending_signal(void);

/* Ends the process now with `status`: terminal restored, marker removed, no atexit work. */
void modhost_guard_exit_now(int status) __attribute__((noreturn));

/* Flushes stdio's standard output; 0, or the errno of a write that failed (ENOSPC, EPIPE…),
 * including one that failed earlier while a module printed (EIO when its errno is lost). */
int modhost_flush_stdout(void);

/* Standard output failed with `code`: the host's doing, never a module's. Says so on standard
 * error unless the reader went away (EPIPE), and ends the process with status 1, the marker
 * removed. */
void modhost_output_failed(int code) __attribute__((noreturn));

#endif
