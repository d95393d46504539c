#define _GNU_SOURCE
#include "host_guard.h"
#include "guard_outcome.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <time.h>
#include <unistd.h>

#include "crash_site.h"
#include "guard_io.h"
#include "guard_marker.h"

enum { LINE_SIZE = 1024 };

/* What the host is running now. `active` is 1 while the prepared buffers describe a module call. */
/* What a crash in a module's own code ends, as its line names it ("the host", or "its own
 * process" in a module's process of its own). */
static char crash_victim[32] = "the host";

static atomic_int active;
static char active_module[256];
static _Atomic pid_t active_thread;
/* The call's phase, its time limit in words ("10"), and what follows each line (the crash
 * record's "; it is skipped from the next start …"): its lines are put together from these
 * only when they are said (a start makes five guarded calls of each module). */
static char active_phase[32], active_seconds[32], crash_suffix[LINE_SIZE];
static _Atomic int64_t call_deadline_ms;

static atomic_int host_exiting;
static atomic_int interrupts;
static atomic_int pending_signal;
static _Atomic int64_t signal_deadline_ms;
static int wake_fd = -1;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP};

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void put(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

/* What a crash's line says when its marker could not take the record (a full disk). */
static const char not_recorded[] = "; the crash could not be written down in the data folder, so it is not skipped from the next start";

/* What the line of a module's crash, exit or hang adds (the skip and the retry), when crashes
 * are recorded: only if its marker holds the record, which a full disk can keep it from. */
static void put_suffix(int recorded) {
    if (crash_suffix[0] == '\0') return;
    put(recorded ? crash_suffix : not_recorded);
}

void modhost_guard_exit_now(int status) {
    atomic_store(&host_exiting, 1);
    guard_end_child_group();
    modhost_guard_restore_terminal();
    modhost_guard_remove_marker();
    _exit(status);
}

/* Where the thread was when the signal came. */
static void *instruction_pointer(void *context) {
#if defined(__x86_64__)
    return (void *)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (void *)((ucontext_t *)context)->uc_mcontext.pc;
#else
    (void)context;
    return NULL;
#endif
}


static void on_fatal_signal(int signal, siginfo_t *info, void *context) {
    (void)info;
    guard_end_child_group();
    modhost_guard_restore_terminal();
    char outcome[32] = MODHOST_OUTCOME_SIGNAL;
    strcat(outcome, guard_signal_name(signal));
    int in_call = atomic_load(&active);
    /* The thread that made the guarded call: a crash without module frames on another
     * thread (a host thread, a library's) is not the calling module's. */
    int on_calling_thread = in_call && (pid_t)syscall(SYS_gettid) == atomic_load(&active_thread);
    /* Say it in the marker before unwinding: on a smashed stack the unwinder may fault in
     * turn, and the default action then ends the process at once. */
    void *pc = context == NULL ? NULL : instruction_pointer(context);
    const struct crash_site_module *at_pc = crash_site_module_at(pc);
    if (!atomic_load(&host_exiting)) {
        if (at_pc != NULL && at_pc->name != NULL && !(in_call && strcmp(at_pc->name, active_module) == 0)) {
            if (guard_has_marker()) guard_write_background_outcome(at_pc, outcome);
        } else if (on_calling_thread || (in_call && at_pc != NULL)) {
            guard_write_outcome(outcome);
        }
    }
    /* The crashing thread's return addresses, the faulting instruction first. */
    void *frames[128];
    int count = backtrace(frames + 1, 127) + 1;
    frames[0] = pc;
    if (!atomic_load(&host_exiting)) {
        const struct crash_site_module *culprit = crash_site_culprit(frames, count);
        put("modhost: error: ");
        if (culprit != NULL && culprit->name != NULL && !(in_call && strcmp(culprit->name, active_module) == 0)) {
            /* Its own code, outside any call the host made to it: a thread of its own, a
             * timer, a route another module called. */
            put("module '");
            put(culprit->name);
            put("' crashed ");
            put(crash_victim);
            put(" in background (");
            put(guard_signal_name(signal));
            put(")");
            if (guard_has_marker()) {
                if (guard_write_background_outcome(culprit, outcome)) {
                    put("; it is skipped from the next start; 'modhost --retry ");
                    put(culprit->name);
                    put("' tries it again");
                } else {
                    put(not_recorded);
                }
            }
        } else if (in_call && (on_calling_thread || culprit != NULL)) {
            put("module '");
            put(active_module);
            put("' crashed ");
            put(crash_victim);
            put(" in ");
            put(active_phase);
            put(" (");
            put(guard_signal_name(signal));
            put(")");
            put_suffix(guard_write_outcome(outcome));
        } else {
            put("the host crashed (");
            put(guard_signal_name(signal));
            put(")");
        }
        if (guard_write_backtrace(signal, frames, count)) {
            put("; its backtrace is in '");
            put(guard_backtrace_path());
            put("'\n");
        } else {
            put("\n");
            backtrace_symbols_fd(frames, count, STDERR_FILENO);
        }
    }
    /* End by the same signal, with its default action: never through the Swift runtime's
     * backtracer, which offers an interactive session for 30 s on a terminal. Returning
     * re-runs a faulting instruction; a raised signal, blocked here, arrives on return. */
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, NULL);
    raise(signal);
}

static void on_stop_signal(int signal) {
    int count = atomic_fetch_add(&interrupts, 1) + 1;
    if (count >= 2) {
        put("\n");
        modhost_guard_exit_now(128 + signal);
    }
    atomic_store(&pending_signal, signal);
    atomic_store(&signal_deadline_ms, now_ms() + 1000);
    if (wake_fd >= 0) {
        char byte = (char)signal;
        (void)write(wake_fd, &byte, 1);
    }
}

static void on_exit_hook(int status, void *argument) {
    (void)argument;
    guard_end_child_group();
    modhost_guard_restore_terminal();
    if (atomic_load(&active) && !atomic_load(&host_exiting)) {
        char number[16];
        int value = status, position = 15;
        number[position] = '\0';
        do {
            number[--position] = (char)('0' + value % 10);
            value /= 10;
        } while (value > 0 && position > 0);
        put("modhost: error: module '");
        put(active_module);
        put("' called exit(");
        put(number + position);
        put(") in ");
        put(active_phase);
        char outcome[32] = MODHOST_OUTCOME_EXIT;
        strcat(outcome, number + position);
        put_suffix(guard_write_outcome(outcome));
        put("\n");
        /* Never exit 0 when a module ended the process. */
        _exit(1);
    }
}

static void *watchdog(void *argument) {
    (void)argument;
    int reported = 0;
    for (;;) {
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
        int64_t now = now_ms();
        int64_t signal_deadline = atomic_load(&signal_deadline_ms);
        if (signal_deadline != 0 && now >= signal_deadline) {
            put("\n");
            modhost_guard_exit_now(128 + atomic_load(&pending_signal));
        }
        int64_t deadline = atomic_load(&call_deadline_ms);
        if (deadline != 0 && now >= deadline && atomic_load(&active) && !reported) {
            reported = 1;
            put("modhost: error: module '");
            put(active_module);
            put("' has not returned from ");
            put(active_phase);
            put(" after ");
            put(active_seconds);
            put(" s");
            put_suffix(guard_write_outcome(MODHOST_OUTCOME_HANG));
            put("\n");
            guard_end_child_group();
            modhost_guard_restore_terminal();
            /* The module still holds the thread that called it; end cleanly rather than run on
             * beside it. The marker stays: the next start skips the module. */
            atomic_store(&host_exiting, 1);
            _exit(1);
        }
    }
    return NULL;
}

static void on_ignored_signal(int signal) { (void)signal; }

/* Installs `handler` for `signal` unless the process was started with it ignored. */
static void handle_unless_ignored(int signal, const struct sigaction *handler) {
    struct sigaction inherited;
    if (sigaction(signal, NULL, &inherited) != 0 || inherited.sa_handler != SIG_IGN) sigaction(signal, handler, NULL);
}

void modhost_guard_set_victim(const char *victim) {
    /* Set before any module code runs; read only by the crash handler. */
    snprintf(crash_victim, sizeof crash_victim, "%s", victim);
}

/* The calling thread's id, asked of the kernel once a thread (and again in a forked child,
 * whose one thread has an id of its own). */
static _Thread_local pid_t known_thread;

static void forget_thread(void) { known_thread = 0; }

static pid_t this_thread(void) {
    if (known_thread == 0) known_thread = (pid_t)syscall(SYS_gettid);
    return known_thread;
}

void modhost_guard_install(int fd) {
    wake_fd = fd;
    pthread_atfork(NULL, NULL, forget_thread);
    modhost_guard_keep_standard_descriptors();
    guard_save_terminal();
    /* backtrace() loads the unwinder on its first call: never for the first time in a handler. */
    void *prime[2];
    (void)backtrace(prime, 2);

    static char alternate_stack[64 * 1024];
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0};
    sigaltstack(&stack, NULL);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(fatal_signals[index], &action, NULL);
    }
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = on_stop_signal;
    stop.sa_flags = SA_RESTART;
    sigemptyset(&stop.sa_mask);
    /* A shell starts a background job of a script with SIGINT ignored, so that a Ctrl-C meant
     * for the script's foreground does not end it too, and nohup ignores SIGHUP: as Unix tools
     * do, keep them so. */
    handle_unless_ignored(SIGINT, &stop);
    handle_unless_ignored(SIGHUP, &stop);
    sigaction(SIGTERM, &stop, NULL);
    sigaction(SIGQUIT, &stop, NULL);
    /* A closed pipe shows as EPIPE on the write, which the host reports as its own; the user
     * signals have no meaning here and must not end the process inside a module call. */
    /* A handler that does nothing rather than SIG_IGN: an ignored signal stays ignored in
     * every program a module starts, a caught one goes back to its default at exec. */
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = on_ignored_signal;
    ignore.sa_flags = SA_RESTART;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, NULL);
    sigaction(SIGUSR1, &ignore, NULL);
    sigaction(SIGUSR2, &ignore, NULL);
    /* A parent may have started us with these blocked (a spawning thread's mask is inherited). */
    sigset_t wanted;
    sigemptyset(&wanted);
    int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t index = 0; index < sizeof stops / sizeof stops[0]; index++) sigaddset(&wanted, stops[index]);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) sigaddset(&wanted, fatal_signals[index]);
    pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
    on_exit(on_exit_hook, NULL);

    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_create(&thread, &attributes, watchdog, NULL);
    pthread_attr_destroy(&attributes);
}

int modhost_guard_add_module(void *handle, const char *name, const char *record_head, const char *record_tail) {
    return crash_site_add(handle, name, record_head, record_tail);
}

static void copy(char *target, const char *source, size_t size) {
    strncpy(target, source, size - 1);
    target[size - 1] = '\0';
}

void modhost_guard_enter(const char *module, const char *phase, const char *seconds, const char *suffix, const char *record_tail,
                         int64_t timeout_ms) {
    atomic_store(&active, 0);
    copy(active_module, module, sizeof active_module);
    atomic_store(&active_thread, this_thread());
    copy(active_phase, phase, sizeof active_phase);
    copy(active_seconds, seconds, sizeof active_seconds);
    copy(crash_suffix, suffix, sizeof crash_suffix);
    guard_set_record(active_module, active_phase, record_tail);
    guard_write_outcome(MODHOST_OUTCOME_RUNNING);
    atomic_store(&call_deadline_ms, timeout_ms > 0 ? now_ms() + timeout_ms : 0);
    atomic_store(&active, 1);
}

int modhost_guard_leave(void) {
    atomic_store(&active, 0);
    atomic_store(&call_deadline_ms, 0);
    guard_write_marker(MODHOST_MARKER_IDLE, strlen(MODHOST_MARKER_IDLE));
    return guard_restore_standard_descriptors();
}

/* Per thread: whether this thread suspended an active call (reads happen on the app's thread). */
static _Thread_local int suspended;

void modhost_guard_suspend(void) {
    if (!atomic_load(&active)) return;
    suspended = 1;
    atomic_store(&active, 0);
    guard_write_marker(MODHOST_MARKER_IDLE, strlen(MODHOST_MARKER_IDLE));
}

void modhost_guard_resume(void) {
    if (!suspended) return;
    suspended = 0;
    guard_write_outcome(MODHOST_OUTCOME_RUNNING);
    atomic_store(&active, 1);
}

void modhost_guard_host_exiting(void) { atomic_store(&host_exiting, 1); }

int modhost_guard_pending_signal(void) { return atomic_load(&pending_signal); }

void modhost_output_failed(int code) {
    atomic_store(&host_exiting, 1);
    if (code != EPIPE) {
        put("modhost: error: cannot write to standard output: ");
        put(strerror(code));
        put("\n");
    }
    modhost_guard_exit_now(1);
}
