#ifndef MODHOST_PSEUDO_TERMINAL_H
#define MODHOST_PSEUDO_TERMINAL_H

/*
 * A program on a new pseudo-terminal, as a terminal emulator starts one: the terminal is its
 * controlling terminal and its standard input, output and error, in a session of its own.
 * In C because only async-signal-safe calls may run between fork and exec in a process with
 * threads (a test process always has them).
 */

/* Starts `path` with `argv` and `envp` (NULL-terminated) on a new pseudo-terminal of `rows` by
 * `columns`, in `directory` (NULL: this one). Its signals start at their defaults, none
 * blocked, and no other descriptor of this process is open in it. Returns its pid and the
 * terminal's master side in *master (close-on-exec), or -1 with errno set. */
int mht_spawn_on_pty(const char *path, char *const argv[], char *const envp[], int rows, int columns, const char *directory,
                     int *master);

/* Starts `path` with `argv` and `envp` with pipes for standard input, output and error: their
 * other ends in fds[0] (to write), fds[1] and fds[2] (to read), close-on-exec. The same
 * defaults as above; its own process group. Returns its pid, or -1 with errno set. */
int mht_spawn_piped(const char *path, char *const argv[], char *const envp[], const char *directory, int fds[3]);

/* Gives the terminal a new size; the kernel tells the program with SIGWINCH. 0, or -1. */
int mht_set_size(int master, int rows, int columns);

#endif
