#ifndef MODHOST_THREADS_H
#define MODHOST_THREADS_H

/* 1 when the calling thread is the process's first one (its thread id is the process id),
 * else 0: what Foundation's Thread.isMainThread answers, without linking Foundation. */
int modhost_is_main_thread(void);

/* Names the calling thread `name`, cut to the kernel's 15 bytes (ps and /proc show it). 0 or an
 * errno. */
int modhost_name_thread(const char *name);

#endif
