#ifndef MODHOST_SANDBOX_H
#define MODHOST_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

/* The sandbox a module's own process puts itself in before the module's code runs (see
 * HostSandbox): Landlock for files, TCP and scopes, a seccomp filter through libseccomp for the
 * system calls, after PR_SET_NO_NEW_PRIVS. Each function returns 0 or an errno. */

/* What a path rule grants. */
enum modhost_sandbox_access {
    MODHOST_SANDBOX_READ = 1,    /* read files, list folders */
    MODHOST_SANDBOX_EXECUTE = 2, /* map as code, run */
    MODHOST_SANDBOX_WRITE = 4,   /* create, write, truncate, rename and remove beneath */
};

/* The Landlock ABI this kernel offers, or 0 when it has none. */
int modhost_sandbox_landlock_abi(void);

/* A Landlock ruleset being built: its descriptor, or -errno. `tcp`: whether TCP connect and
 * bind stay allowed (ABI 4 and later restrict them otherwise); scopes (ABI 6) always on. */
int modhost_sandbox_ruleset(int abi, int tcp);

/* Grants `access` (modhost_sandbox_access bits) beneath `path`: a folder and what it holds, or
 * one file (then only read, execute and write of the file itself). ENOENT for a path not there;
 * with `no_symlinks`, ELOOP for one that goes through a symlink anywhere on its way. */
int modhost_sandbox_allow_path(int ruleset, int abi, const char *path, int access, int no_symlinks);

/* Confines this process (and what it starts) to the ruleset, then closes it. */
int modhost_sandbox_restrict(int ruleset);

/* Drops every capability this process has, from its effective, permitted, inheritable and
 * ambient sets and its bounding set: a module's process run by root keeps no CAP_SYS_PTRACE,
 * CAP_DAC_OVERRIDE or the like to reach around its sandbox. */
int modhost_sandbox_drop_capabilities(void);

/* Zeroes the environment this process was started with, where the kernel keeps it (what
 * /proc/PID/environ reads), once the process holds what it keeps of it elsewhere (after
 * clearenv and setenv). 0 or an errno. */
int modhost_sandbox_wipe_initial_environment(void);

/* The seccomp filter: refuses with EPERM the calls no module needs (ptrace, process_vm_*,
 * mount, bpf, keyctl, kexec_*, module loading, perf_event_open, unshare, setns, personality,
 * io_uring …), clone with a namespace flag (clone3 answers ENOSYS), typing into the terminal
 * (TIOCSTI, TIOCLINUX), every socket without `network` and UNIX ones with it, execve unless
 * `exec`; on every thread of the process. With `notify`, each such call is handed to whoever
 * holds the descriptor stored there (SECCOMP_RET_USER_NOTIF), who refuses and names it.
 * With `notify`, every call that sends a signal is handed over too: the host lets through one
 * the process sends itself (noted: a wait status alone cannot tell a process that ended
 * itself from one ended from outside) or a process it started, and refuses and names the rest.
 * `watched` (with `notify`): every call that opens (but for O_PATH), makes or removes a file is
 * handed over too, and every one that starts a process (clone without CLONE_THREAD, fork,
 * vfork); the host lets through what the module's grants cover and refuses and names the rest
 * (Landlock still decides what it lets through), and counts the module's processes.
 * `audit` (with `notify`): every such call, whatever `network` and `exec` say, and every call
 * on a file, is handed over to be noted and let through (modhost_sandbox_allow): what the
 * module would need, learnt. */
int modhost_sandbox_filter(int network, int exec, int audit, int watched, int *notify);

/* The filter modhost_sandbox_filter loads when watched, made into a BPF program now, in a
 * sealed memory file (`*program`, close-on-exec) for another process to load: the host makes
 * it while a module's process starts. */
int modhost_sandbox_filter_program(int network, int exec, int *program);

/* Loads `program` (from modhost_sandbox_filter_program) as modhost_sandbox_filter would load
 * the filter it builds (PR_SET_NO_NEW_PRIVS first, every thread, its notices on `*notify`).
 * EINVAL when it is not such a program, or was made for other grants than `network` and
 * `exec`: the caller then builds its own. */
int modhost_sandbox_load_program(int program, int network, int exec, int *notify);

/* One call the filter handed to the host instead of refusing it itself. */
struct modhost_refusal {
    uint64_t id;       /* the kernel's, for the answer */
    char call[32];     /* the system call's name */
    uint64_t first;    /* its first three arguments */
    uint64_t second;
    uint64_t third;
    char program[256]; /* for execve and execveat: the program's path, when it could be read */
    char path[1024];   /* for a call on a file: its path, absolute, when it could be read;
                        * for execve and execveat: the program's */
    char source[1024]; /* for rename and link: the old name, absolute, when it could be read */
    int writes;        /* for a call on a file: whether it writes, truncates, makes or removes */
    int creates;       /* for an open: whether it makes the file when it is not there (O_CREAT) */
    int32_t caller;    /* the calling thread's id (its /proc entry reads as its process's) */
};

/* Waits for the next call handed over on `notify` (the descriptor modhost_sandbox_filter gave)
 * and describes it; the caller then answers it with modhost_sandbox_refuse. 0; ENOENT when no
 * process uses the filter any more; EAGAIN when the call went away before it was received. */
int modhost_sandbox_next_refusal(int notify, struct modhost_refusal *refusal);

/* Answers call `id` with `error` (EPERM, or EACCES for a file as Landlock would): the module
 * sees an ordinary failed call. */
int modhost_sandbox_refuse(int notify, uint64_t id, int error);

/* Lets call `id` go on as if no filter had seen it (the audit mode; a signal a module's process
 * sends itself or a process it started). */
int modhost_sandbox_allow(int notify, uint64_t id);

#endif
