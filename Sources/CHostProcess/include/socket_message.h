#ifndef MODHOST_SOCKET_MESSAGE_H
#define MODHOST_SOCKET_MESSAGE_H
#include <stddef.h>
#include <sys/types.h>

/* Most descriptors one message carries (SCM_RIGHTS). */
enum { MODHOST_MESSAGE_DESCRIPTORS = 8 };

/*
 * Sends `size` bytes on the stream socket `fd` with one sendmsg, and with them the `count`
 * descriptors of `descriptors` (SCM_RIGHTS; at most MODHOST_MESSAGE_DESCRIPTORS). Never raises
 * SIGPIPE (MSG_NOSIGNAL). Returns the bytes sent, or -1 with errno set. Swift cannot write the
 * control-message macros (CMSG_*) itself.
 */
ssize_t modhost_send_with_descriptors(int fd, const void *bytes, size_t size, const int *descriptors, int count);

/*
 * Receives up to `capacity` bytes from `fd` with one recvmsg, and the descriptors that came
 * with them into `descriptors` (close-on-exec, MSG_CMSG_CLOEXEC; their number in `*count`).
 * Returns the bytes received (0 at the end), or -1 with errno set. A message that carried more
 * descriptors than fit (MSG_CTRUNC) has those that came closed and fails with EMSGSIZE: a peer
 * cannot make the host keep descriptors it did not ask for. `flags` are recvmsg's (MSG_DONTWAIT
 * to not wait).
 */
ssize_t modhost_receive_with_descriptors(int fd, void *bytes, size_t capacity, int *descriptors, int *count, int flags);

#endif
