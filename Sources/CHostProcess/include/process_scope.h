#ifndef MODHOST_PROCESS_SCOPE_H
#define MODHOST_PROCESS_SCOPE_H

/* Confines this process and what it starts to signalling only among themselves (Landlock's
 * signal and abstract UNIX socket scopes, ABI 6 and later), after PR_SET_NO_NEW_PRIVS: what a
 * check's probe does before it loads any library, so that a library's constructor cannot stop
 * or kill the check that started it, nor the app or the shell above. 0 when confined, else an
 * errno: ENOSYS or EOPNOTSUPP when the kernel has no Landlock, ENOTSUP below ABI 6. */
int modhost_scope_signals(void);

/* The Landlock ABI this kernel offers, or 0 when it has none. */
int modhost_landlock_abi(void);

/* Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER): a process below it whose
 * parent ends becomes its child, never init's, so that it can end all of them. 0 or an errno. */
int modhost_become_subreaper(void);

/* Makes this process not dumpable (PR_SET_DUMPABLE 0): what /proc guards of it by ptrace's
 * check is then open only to a process with CAP_SYS_PTRACE. 0 or an errno. */
int modhost_not_dumpable(void);

#endif
